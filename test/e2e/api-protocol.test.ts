import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, problem, startServer, type TestServer, expectProblem } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const link = (teamId: string, extra: Record<string, unknown> = {}) => ({
  team: teamId,
  destination: 'https://example.com/protocol',
  ...extra,
});

describe('authentication (spec §5)', () => {
  it('answers 401 invalid_token without a token', async () => {
    expectProblem(server, await call(server, 'listTeams', {}), 401, 'invalid_token');
  });

  it('answers 401 invalid_token for a malformed or unknown token', async () => {
    expectProblem(server, await call(server, 'listTeams', {}, 'nonsense'), 401, 'invalid_token');
    const alice = await server.person();
    const forged = alice.token.slice(0, -1) + (alice.token.endsWith('A') ? 'B' : 'A');
    expectProblem(server, await call(server, 'listTeams', {}, forged), 401, 'invalid_token');
  });

  it('answers 401 invalid_token for a revoked token', async () => {
    const alice = await server.person();
    const id = `tok_${alice.token.slice(3, 19)}`;
    expect(await server.app.ctx.store.tokens.revoke(id, new Date())).toBe(true);
    expectProblem(server, await call(server, 'listTeams', {}, alice.token), 401, 'invalid_token');
  });

  it('answers 403 first_step before the person agreed to the terms, naming /welcome', async () => {
    const bob = await server.person({ agreed: false });
    const reply = await call(server, 'listTeams', {}, bob.token);
    expectProblem(server, reply, 403, 'first_step');
    expect(reply.body.detail).toContain(`${server.url}/welcome`);
  });

  it('answers 403 token_record_left after the person left the team, and works again on rejoining', async () => {
    const alice = await server.person();
    const bob = await server.person();
    const teams = server.app.ctx.store.teams;
    // A team always keeps an owner: bob becomes one, so that alice, its first, may go.
    await teams.addMember(alice.teamId, bob.personId, new Date());
    expect(await teams.makeOwner(alice.teamId, bob.personId, 'operator')).toBe('made');
    expect(await teams.removeMember(alice.teamId, alice.personId, 'operator')).toBe('removed');
    expectProblem(server, await call(server, 'listTeams', {}, alice.token), 403, 'token_record_left');
    await teams.addMember(alice.teamId, alice.personId, new Date());
    expect((await call(server, 'listTeams', {}, alice.token)).status).toBe(200);
  });

  it('answers 403 insufficient_scope outside the token scopes', async () => {
    const alice = await server.person({ scopes: ['listTeams'] });
    expect((await call(server, 'listTeams', {}, alice.token)).status).toBe(200);
    expectProblem(server, await call(server, 'createLink', link(alice.teamId), alice.token), 403, 'insufficient_scope');
  });
});

describe('request rules (spec §4 common rules)', () => {
  it('answers 404 not_found for an unknown operation', async () => {
    const alice = await server.person();
    expectProblem(server, await call(server, 'makeCoffee', {}, alice.token), 404, 'not_found');
  });

  it('answers 405 with Allow: POST for a GET on an operation', async () => {
    const alice = await server.person();
    const res = await fetch(`${server.url}/v1/getLink`, { headers: { authorization: `Bearer ${alice.token}` } });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect(await res.json()).toMatchObject(problem(server, 405, 'method_not_allowed'));
  });

  it('answers 410 version_retired for any other version', async () => {
    const alice = await server.person();
    for (const path of ['/v0/getLink', '/v2/createLink', '/v0']) {
      const res = await fetch(`${server.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${alice.token}` } });
      expect(res.status).toBe(410);
      expect(await res.json()).toMatchObject(problem(server, 410, 'version_retired'));
    }
  });

  it('answers 400 bad_request for malformed JSON, a non-object body and a non-JSON content type', async () => {
    const alice = await server.person();
    expectProblem(server, await call(server, 'listTeams', '{"limit":', alice.token), 400, 'bad_request');
    expectProblem(server, await call(server, 'listTeams', '[]', alice.token), 400, 'bad_request');
    expectProblem(server, await call(server, 'listTeams', 'null', alice.token), 400, 'bad_request');
    expectProblem(server, await call(server, 'listTeams', '', alice.token), 400, 'bad_request');
    const form = await call(server, 'listTeams', 'limit=5', alice.token, { 'content-type': 'application/x-www-form-urlencoded' });
    expectProblem(server, form, 400, 'bad_request');
  });

  it('answers 400 bad_request naming an unknown param', async () => {
    const alice = await server.person();
    expectProblem(server, await call(server, 'listTeams', { limit: 5, colour: 'red' }, alice.token), 400, 'bad_request', 'colour');
  });

  it('answers 413 content_too_large for a body over 512 KiB', async () => {
    const alice = await server.person();
    const huge = JSON.stringify({ team: alice.teamId, destination: `https://example.com/${'a'.repeat(600_000)}` });
    const reply = await call(server, 'createLink', huge, alice.token);
    expectProblem(server, reply, 413, 'content_too_large');
    expect(reply.body.detail).toBe('The body is larger than 512 KiB.');
  });

  it('serves the OpenAPI document at GET /v1/openapi.json', async () => {
    const res = await fetch(`${server.url}/v1/openapi.json`);
    expect(res.status).toBe(200);
    const doc = await res.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers[0].url).toBe(`${server.url}/v1`);
  });
});

describe('rate limits (spec §8)', () => {
  it('carries RateLimit and RateLimit-Policy on every answer, errors included', async () => {
    const alice = await server.person();
    const ok = await call(server, 'listTeams', {}, alice.token);
    expect(ok.headers.get('ratelimit-policy')).toBe('"minute";q=600;w=60');
    expect(ok.headers.get('ratelimit')).toMatch(/^"minute";r=599;t=\d+$/);
    const second = await call(server, 'listTeams', {}, alice.token);
    expect(second.headers.get('ratelimit')).toMatch(/^"minute";r=598;t=\d+$/);
    const failed = await call(server, 'makeCoffee', {}, alice.token);
    expect(failed.headers.get('ratelimit')).toMatch(/^"minute";r=597;t=\d+$/);
    expect((await call(server, 'listTeams', {})).headers.get('ratelimit-policy')).toBe('"minute";q=600;w=60');
  });

  it('answers 429 rate_limited with Retry-After past the calls per minute, shared by all tokens of a person', async () => {
    const limited = await startServer();
    try {
      await limited.setLimits({ callsPerMinute: 3 });
      const alice = await limited.person();
      const other = await limited.token(alice.personId, alice.teamId);
      for (let i = 0; i < 2; i++) expect((await call(limited, 'listTeams', {}, alice.token)).status).toBe(200);
      expect((await call(limited, 'listTeams', {}, other)).status).toBe(200);
      const reply = await call(limited, 'listTeams', {}, other);
      expect(reply.status).toBe(429);
      expect(reply.body).toMatchObject({ status: 429, code: 'rate_limited', field: null });
      expect(Number(reply.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(reply.headers.get('ratelimit')).toMatch(/^"minute";r=0;t=\d+$/);
      const bob = await limited.person();
      expect((await call(limited, 'listTeams', {}, bob.token)).status).toBe(200);
    } finally {
      await limited.stop();
    }
  });
});

describe('Idempotency-Key (spec §4)', () => {
  it('replays the first answer for the same key and body, with Idempotent-Replayed', async () => {
    const alice = await server.person();
    const headers = { 'idempotency-key': 'create-1' };
    const first = await call(server, 'createLink', link(alice.teamId), alice.token, headers);
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await call(server, 'createLink', link(alice.teamId), alice.token, headers);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const listed = await call(server, 'listLinks', { team: alice.teamId }, alice.token);
    expect(listed.body.data).toHaveLength(1);
  });

  it('treats the same body with other key order or spacing as the same body', async () => {
    const alice = await server.person();
    const headers = { 'idempotency-key': 'order' };
    const first = await call(server, 'createLink', link(alice.teamId, { note: 'x' }), alice.token, headers);
    const reordered = JSON.stringify({ note: 'x', destination: 'https://example.com/protocol', team: alice.teamId });
    const again = await call(server, 'createLink', ` ${reordered} `, alice.token, headers);
    expect(again.body).toEqual(first.body);
  });

  it('answers 422 idempotency_key_reused for the same key with another body', async () => {
    const alice = await server.person();
    const headers = { 'idempotency-key': 'k' };
    await call(server, 'createLink', link(alice.teamId), alice.token, headers);
    const other = await call(server, 'createLink', link(alice.teamId, { note: 'other' }), alice.token, headers);
    expectProblem(server, other, 422, 'idempotency_key_reused', 'Idempotency-Key');
  });

  it('scopes a key to the person and the operation', async () => {
    const alice = await server.person();
    const bob = await server.person();
    const headers = { 'idempotency-key': 'shared' };
    const a = await call(server, 'createLink', link(alice.teamId), alice.token, headers);
    const b = await call(server, 'createLink', link(bob.teamId), bob.token, headers);
    expect(b.status).toBe(200);
    expect(b.body.code).not.toBe(a.body.code);
    const note = await call(server, 'setNote', { code: a.body.code, note: 'n' }, alice.token, headers);
    expect(note.status).toBe(200);
    expect(note.body.note).toBe('n');
  });

  it('replays an operation error too, but not a limit', async () => {
    const alice = await server.person();
    const headers = { 'idempotency-key': 'bad-name' };
    const first = await call(server, 'createLink', link(alice.teamId, { name: 'api' }), alice.token, headers);
    expectProblem(server, first, 400, 'reserved_name', 'name');
    const again = await call(server, 'createLink', link(alice.teamId, { name: 'api' }), alice.token, headers);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  it('does not keep a 429 limit answer, so a retry after the wait runs again', async () => {
    const own = await startServer();
    try {
      await own.setLimits({ perHour: 1 });
      const alice = await own.person();
      expect((await call(own, 'createLink', link(alice.teamId), alice.token)).status).toBe(200);
      const headers = { 'idempotency-key': 'after-limit' };
      const limited = await call(own, 'createLink', link(alice.teamId), alice.token, headers);
      expect(limited.status).toBe(429);
      expect(limited.body.code).toBe('limit_reached');
      own.clock.advance(3_600_001);
      const retried = await call(own, 'createLink', link(alice.teamId), alice.token, headers);
      expect(retried.status).toBe(200);
      expect(retried.headers.get('idempotent-replayed')).toBeNull();
    } finally {
      await own.stop();
    }
  });

  it('forgets a key after 24 hours', async () => {
    const alice = await server.person();
    const headers = { 'idempotency-key': 'day' };
    const first = await call(server, 'createLink', link(alice.teamId), alice.token, headers);
    server.clock.advance(24 * 3_600_000 + 1);
    const later = await call(server, 'createLink', link(alice.teamId), alice.token, headers);
    expect(later.status).toBe(200);
    expect(later.body.code).not.toBe(first.body.code);
  });

  it('answers 400 bad_request for a key over 255 characters', async () => {
    const alice = await server.person();
    const reply = await call(server, 'createLink', link(alice.teamId), alice.token, { 'idempotency-key': 'k'.repeat(256) });
    expectProblem(server, reply, 400, 'bad_request', 'Idempotency-Key');
    const ok = await call(server, 'createLink', link(alice.teamId), alice.token, { 'idempotency-key': 'k'.repeat(255) });
    expect(ok.status).toBe(200);
  });

  it('makes one link for parallel calls with one key; the others wait or replay', async () => {
    const alice = await server.person();
    const headers = { 'idempotency-key': 'parallel' };
    const replies = await Promise.all(
      Array.from({ length: 10 }, () => call(server, 'createLink', link(alice.teamId), alice.token, headers)),
    );
    const made = replies.filter((r) => r.status === 200);
    for (const reply of replies.filter((r) => r.status !== 200)) {
      expectProblem(server, reply, 409, 'idempotency_key_in_use');
    }
    expect(made.length).toBeGreaterThanOrEqual(1);
    expect(new Set(made.map((r) => r.body.code)).size).toBe(1);
    const listed = await call(server, 'listLinks', { team: alice.teamId }, alice.token);
    expect(listed.body.data).toHaveLength(1);
  });
});
