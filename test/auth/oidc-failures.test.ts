import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { ResponseBodyError } from 'openid-client';
import { failureLog, reasonOf } from '../../src/auth/oidc/failure-log.js';
import { tokenEndpointAuthMethod } from '../../src/auth/oidc/provider.js';

describe('tokenEndpointAuthMethod', () => {
  it('takes client_secret_basic when listed or with no list, else client_secret_post when listed, else none', () => {
    expect(tokenEndpointAuthMethod(undefined)).toBe('client_secret_basic');
    expect(tokenEndpointAuthMethod(['private_key_jwt', 'client_secret_post', 'client_secret_basic'])).toBe('client_secret_basic');
    expect(tokenEndpointAuthMethod(['private_key_jwt', 'client_secret_post'])).toBe('client_secret_post');
    expect(tokenEndpointAuthMethod(['private_key_jwt', 'client_secret_jwt'])).toBeNull();
    expect(tokenEndpointAuthMethod([])).toBeNull();
  });
});

describe('reasonOf', () => {
  it('names classes, codes, the OAuth error and the status, and no message but openid-client’s own', () => {
    const refused = new Error('connect ECONNREFUSED 127.0.0.1:1');
    Object.assign(refused, { code: 'ECONNREFUSED' });
    expect(reasonOf(new TypeError('fetch failed', { cause: refused }))).toBe('TypeError, caused by Error ECONNREFUSED');
    const body = new ResponseBodyError('server responded with an error in the response body', {
      cause: { error: 'invalid_client', error_description: 'the code=abc was bad' },
      response: new Response(null, { status: 401 }),
    });
    expect(reasonOf(body)).toBe('ResponseBodyError OAUTH_RESPONSE_BODY_ERROR invalid_client (HTTP 401)');
    expect(reasonOf(new Error('https://service/callback?code=secret'))).toBe('Error');
  });
});

describe('failureLog', () => {
  it('tells each reason at most once a minute, counting those left out', () => {
    const lines: Array<{ msg: string; leftOut: number }> = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    let now = 0;
    const tell = failureLog({ issuer: 'https://id.example', log: () => logger, now: () => now });
    tell('discovery', 'A');
    tell('discovery', 'A');
    tell('discovery', 'B');
    tell('the token exchange', 'A');
    now = 59_999;
    tell('discovery', 'A');
    now = 60_000;
    tell('discovery', 'A');
    expect(lines.map((line) => line.msg)).toEqual([
      'Single sign-on with https://id.example failed at discovery: A',
      'Single sign-on with https://id.example failed at discovery: B',
      'Single sign-on with https://id.example failed at the token exchange: A',
      'Single sign-on with https://id.example failed at discovery: A (and 2 more since the last line)',
    ]);
    expect(lines.at(-1)!.leftOut).toBe(2);
  });
});
