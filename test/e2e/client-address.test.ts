import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { clientAddressOf } from '../../src/http/client-address.js';
import { startServer } from '../helpers/server.js';

function request(remoteAddress: string, forwarded?: string): IncomingMessage {
  return { socket: { remoteAddress }, headers: forwarded ? { 'x-forwarded-for': forwarded } : {} } as unknown as IncomingMessage;
}

describe('the client address', () => {
  const behindProxy = clientAddressOf(new Set(['10.0.0.1', '127.0.0.1']));
  const direct = clientAddressOf(new Set());

  it('is the peer when no proxy is trusted, whatever X-Forwarded-For says', () => {
    expect(direct(request('198.51.100.7', '203.0.113.9'))).toBe('198.51.100.7');
  });

  it('is the rightmost untrusted X-Forwarded-For entry behind a trusted proxy', () => {
    expect(behindProxy(request('10.0.0.1', '203.0.113.9'))).toBe('203.0.113.9');
    expect(behindProxy(request('::ffff:127.0.0.1', 'forged-by-client, 203.0.113.9, 10.0.0.1'))).toBe('203.0.113.9');
    expect(behindProxy(request('10.0.0.1'))).toBe('10.0.0.1');
    expect(behindProxy(request('198.51.100.7', '203.0.113.9'))).toBe('198.51.100.7');
  });

  it('keys the calls-per-minute budget of callers without a token by the forwarded address with TRUST_PROXY', async () => {
    for (const [env, shared] of [[{}, true], [{ TRUST_PROXY: '127.0.0.1' }, false]] as const) {
      const server = await startServer({ env });
      try {
        const left = async (address: string) => {
          const res = await fetch(`${server.url}/v1/listTeams`, { method: 'POST', headers: { 'x-forwarded-for': address, 'content-type': 'application/json' }, body: '{}' });
          return /r=(\d+)/.exec(res.headers.get('ratelimit') ?? '')![1];
        };
        expect(await left('203.0.113.1')).toBe('599');
        expect(await left('203.0.113.2')).toBe(shared ? '598' : '599');
      } finally {
        await server.stop();
      }
    }
  });
});
