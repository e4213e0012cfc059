/**
 * Discovery and challenges: authorization server metadata (RFC 8414, and the OpenID discovery address),
 * protected resource metadata (RFC 9728) at the path and root forms, and /mcp's 401 and 403 challenges, exact to
 * the byte. Checklist R1–R5, A1–A3 of shared/research/mcp-oauth.md.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { OAuthMetadataSchema, OAuthProtectedResourceMetadataSchema } from '@modelcontextprotocol/sdk/shared/auth.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { browserOf, consent, pkce, register, tokenRequest, authorizeUrl, TestOAuthProvider } from '../helpers/oauth.js';

let server: TestServer;
let prm: string;

beforeAll(async () => {
  server = await startServer();
  prm = `${server.url}/.well-known/oauth-protected-resource/mcp`;
});
afterAll(() => server.stop());

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

function mcp(body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', ...headers },
    body: JSON.stringify(body),
  });
}

/** An access token for a person, with the scope asked for, by the manual flow. */
async function accessToken(scope: string): Promise<{ token: string; teamId: string; clientId: string; cookie: string }> {
  const person = await server.person();
  const cookie = await browserOf(server, person.personId);
  const callback = 'http://127.0.0.1:33418/callback';
  const { body: client } = await register(server, { redirect_uris: [callback] });
  const { verifier, challenge } = pkce();
  const back = await consent(server, cookie, authorizeUrl(server, {
    response_type: 'code', client_id: client.client_id, redirect_uri: callback, code_challenge: challenge, code_challenge_method: 'S256', scope,
  }));
  const res = await tokenRequest(server, {
    grant_type: 'authorization_code', client_id: client.client_id, code: back.code!, code_verifier: verifier, redirect_uri: callback,
  });
  expect(res.body.scope).toBe(scope);
  return { token: res.body.access_token, teamId: person.teamId, clientId: client.client_id, cookie };
}

describe('authorization server metadata (A1, A2)', () => {
  it.each(['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration'])('%s', async (path) => {
    const res = await fetch(`${server.url}${path}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const doc = await res.json();
    expect(doc).toEqual({
      issuer: server.url,
      authorization_endpoint: `${server.url}/authorize`,
      token_endpoint: `${server.url}/token`,
      registration_endpoint: `${server.url}/register`,
      revocation_endpoint: `${server.url}/revoke`,
      scopes_supported: ['links', 'links:read'],
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_methods_supported: ['none', 'client_secret_post', 'client_secret_basic'],
      revocation_endpoint_auth_methods_supported: ['none', 'client_secret_post', 'client_secret_basic'],
      code_challenge_methods_supported: ['S256'],
      client_id_metadata_document_supported: true,
      authorization_response_iss_parameter_supported: true,
    });
    expect(doc.issuer.endsWith('/')).toBe(false);
    expect(OAuthMetadataSchema.safeParse(doc).success).toBe(true);
  });

  it('answers a CORS preflight, and 405 to a POST', async () => {
    const preflight = await fetch(`${server.url}/.well-known/oauth-authorization-server`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:6274', 'access-control-request-method': 'GET' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    const post = await fetch(`${server.url}/.well-known/oauth-authorization-server`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET');
  });
});

describe('protected resource metadata (R1, R2)', () => {
  it.each(['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource'])('%s', async (path) => {
    const res = await fetch(`${server.url}${path}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const doc = await res.json();
    expect(doc).toEqual({
      resource: `${server.url}/mcp`,
      authorization_servers: [server.url],
      scopes_supported: ['links', 'links:read'],
      bearer_methods_supported: ['header'],
      resource_name: 'shortlinks',
    });
    expect(OAuthProtectedResourceMetadataSchema.safeParse(doc).success).toBe(true);
  });

  it('the issuer is byte-identical in both documents and in iss', async () => {
    const as = await (await fetch(`${server.url}/.well-known/oauth-authorization-server`)).json();
    const rs = await (await fetch(prm)).json();
    expect(rs.authorization_servers[0]).toBe(as.issuer);
  });
});

describe('challenges from /mcp (R3, R4, R5)', () => {
  it('no token: 401 naming the metadata and the scope, without an error code', async () => {
    const res = await mcp(initialize);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${prm}", scope="links"`);
  });

  it('an unknown token: 401 with error="invalid_token"', async () => {
    for (const token of ['sla_' + 'A'.repeat(48), 'sl_nope', 'random']) {
      const res = await mcp(initialize, { authorization: `Bearer ${token}` });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe(`Bearer error="invalid_token", resource_metadata="${prm}", scope="links"`);
    }
  });

  it('a links:read token calling a tool that changes: 403 insufficient_scope asking for links', async () => {
    const { token, teamId } = await accessToken('links:read');
    const auth = { authorization: `Bearer ${token}` };
    const init = await mcp(initialize, auth);
    expect(init.status).toBe(200);
    const session = { ...auth, 'mcp-session-id': init.headers.get('mcp-session-id')! };
    const create = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'createLink', arguments: { team: teamId, destination: 'https://example.com/x' } } };
    const res = await mcp(create, session);
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toBe(`Bearer error="insufficient_scope", resource_metadata="${prm}", scope="links"`);
    expect(await res.json()).toMatchObject({ status: 403, code: 'insufficient_scope' });
    // In a batch too.
    expect((await mcp([create], session)).status).toBe(403);
    // Reading is fine.
    const read = await mcp({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'myTeams', arguments: {} } }, session);
    expect(read.status).toBe(200);
    expect(await read.text()).toContain(teamId);
  });

  it('the SDK client steps up from links:read to links on the 403, with a second consent', async () => {
    const { token, teamId, clientId, cookie } = await accessToken('links:read');
    // The client holds a links:read access token (no refresh token, so it must sign in again to step up).
    const provider = new TestOAuthProvider(server, cookie);
    provider.saveClientInformation({ client_id: clientId });
    provider.saveTokens({ access_token: token, token_type: 'Bearer', scope: 'links:read' });
    const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { authProvider: provider });
    const client = new Client({ name: 'step-up', version: '1' });
    await client.connect(transport);
    expect((await client.callTool({ name: 'myTeams', arguments: {} })).isError).toBeFalsy();

    const create = { name: 'createLink', arguments: { team: teamId, destination: 'https://example.com/step-up' } };
    await expect(client.callTool(create)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.opened[0]!.searchParams.get('scope')).toBe('links');
    await transport.finishAuth(provider.code);
    expect(provider.saved!.scope).toBe('links');
    const made = await client.callTool(create);
    expect(made.isError).toBeFalsy();
    await client.close();
  });

  it('personal tokens keep working on /mcp', async () => {
    const person = await server.person();
    expect((await mcp(initialize, { authorization: `Bearer ${person.token}` })).status).toBe(200);
  });
});
