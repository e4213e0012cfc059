import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';

const SET = { OIDC_ISSUER: 'https://id.example.com', OIDC_CLIENT_ID: 'links', OIDC_CLIENT_SECRET: 'secret' };

describe('OIDC_* (single sign-on)', () => {
  it('is off unless issuer, client id and secret are all set; then names the button and lists the domains', () => {
    expect(loadConfig({}).oidc).toBeUndefined();
    expect(loadConfig(SET).oidc).toEqual({
      issuer: 'https://id.example.com',
      clientId: 'links',
      clientSecret: 'secret',
      name: 'single sign-on',
      allowedDomains: [],
      only: false,
    });
    expect(loadConfig({ ...SET, OIDC_NAME: ' Example ID ', OIDC_ALLOWED_DOMAINS: 'Example.com, corp.example.org', OIDC_ONLY: '1' }).oidc).toMatchObject({
      name: 'Example ID',
      allowedDomains: ['example.com', 'corp.example.org'],
      only: true,
    });
  });

  it('refuses to start with part of the three, or OIDC_ONLY without them', () => {
    const partial = /^Bad configuration: OIDC_ISSUER: OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET are set together or not at all$/;
    expect(() => loadConfig({ OIDC_ISSUER: SET.OIDC_ISSUER })).toThrow(partial);
    expect(() => loadConfig({ OIDC_CLIENT_ID: 'links', OIDC_CLIENT_SECRET: 'secret' })).toThrow(partial);
    expect(() => loadConfig({ OIDC_ONLY: '1' })).toThrow(/^Bad configuration: OIDC_ONLY: needs OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET$/);
    expect(() => loadConfig({ ...SET, OIDC_ONLY: 'yes' })).toThrow(/^Bad configuration: OIDC_ONLY: /);
  });

  it('takes an http issuer only on a loopback host', () => {
    for (const issuer of ['http://127.0.0.1:8080', 'http://localhost:8080/realms/x', 'http://[::1]:9000']) {
      expect(loadConfig({ ...SET, OIDC_ISSUER: issuer }).oidc?.issuer).toBe(issuer);
    }
    for (const issuer of ['http://id.example.com', 'http://10.0.0.5', 'ftp://id.example.com']) {
      expect(() => loadConfig({ ...SET, OIDC_ISSUER: issuer })).toThrow(
        /^Bad configuration: OIDC_ISSUER: must be an https:\/\/ URL \(http:\/\/ only on a loopback host\)$/,
      );
    }
  });
});
