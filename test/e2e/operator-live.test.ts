import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { call, expectProblem, startServer, type TestServer } from '../helpers/server.js';

/**
 * The operator CLI works on the database while the server runs, as its own process, and the server applies each
 * change on its very next request (limits, blocklist, link states, tokens, memberships).
 */
let server: TestServer;
const cli = (...args: string[]) => runCli(server.dbPath, ...args, '--json');

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

// Each test runs the CLI as processes of its own: 6 s here, so 60 s leaves room on a loaded CI runner.
describe('operator changes while the server runs', { timeout: 60_000 }, () => {
  it('limits set changes the calls-per-minute policy on the next request', async () => {
    const alice = await server.person();
    expect((await call(server, 'listTeams', {}, alice.token)).headers.get('ratelimit-policy')).toBe('"minute";q=600;w=60');
    expect((await cli('limits', 'set', '--calls-per-minute', '900')).code).toBe(0);
    expect((await call(server, 'listTeams', {}, alice.token)).headers.get('ratelimit-policy')).toBe('"minute";q=900;w=60');
  });

  it('block add refuses the domain on the next createLink', async () => {
    const alice = await server.person();
    const body = { team: alice.teamId, destination: 'https://shop.evil-site.com/' };
    expect((await cli('block', 'add', 'evil-site.com')).code).toBe(0);
    const refused = await call(server, 'createLink', body, alice.token);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'blocked_destination', field: 'destination' });
    expect((await cli('block', 'remove', 'evil-site.com')).code).toBe(0);
    expect((await call(server, 'createLink', body, alice.token)).status).toBe(200);
  });

  it('link disable, flag and restore take effect at once', async () => {
    const alice = await server.person();
    const made = await call(server, 'createLink', { team: alice.teamId, destination: 'https://example.com/' }, alice.token);
    const change = () => call(server, 'setDestination', { code: made.body.code, destination: 'https://example.org/' }, alice.token);
    expect((await cli('link', 'disable', made.body.code)).code).toBe(0);
    expect((await change()).body.code).toBe('link_disabled');
    expect((await cli('link', 'flag', made.body.code)).code).toBe(0);
    expect((await change()).body.code).toBe('link_flagged');
    expect((await cli('link', 'restore', made.body.code)).code).toBe(0);
    expect((await change()).status).toBe(200);
  });

  it('token revoke answers invalid_token on the next call', async () => {
    const alice = await server.person();
    expect((await call(server, 'listTeams', {}, alice.token)).status).toBe(200);
    expect((await cli('token', 'revoke', `tok_${alice.token.slice(3, 19)}`)).code).toBe(0);
    expect((await call(server, 'listTeams', {}, alice.token)).body.code).toBe('invalid_token');
  });

  it('token revoke refuses a token on its very next getLink, however often it was just used', async () => {
    const alice = await server.person();
    const made = await call(server, 'createLink', { team: alice.teamId, destination: 'https://example.com/' }, alice.token);
    for (let i = 0; i < 3; i++) expect((await call(server, 'getLink', { code: made.body.code }, alice.token)).status).toBe(200);
    expect((await cli('token', 'revoke', `tok_${alice.token.slice(3, 19)}`)).code).toBe(0);
    expectProblem(server, await call(server, 'getLink', { code: made.body.code }, alice.token), 401, 'invalid_token');
  });

  it('member remove and link disable show on the very next getLink', async () => {
    const alice = await server.person();
    const bob = await server.person();
    const made = await call(server, 'createLink', { team: alice.teamId, destination: 'https://example.com/' }, alice.token);
    const get = (token: string) => call(server, 'getLink', { code: made.body.code }, token);
    expect((await cli('member', 'add', '--team', alice.teamId, '--email', bob.email)).code).toBe(0);
    expect((await get(bob.token)).body.state).toBe('active');
    expect((await cli('link', 'disable', made.body.code)).code).toBe(0);
    expect((await get(bob.token)).body.state).toBe('disabled');
    expect((await cli('member', 'remove', '--team', alice.teamId, '--email', bob.email)).code).toBe(0);
    expectProblem(server, await get(bob.token), 404, 'not_found', 'code');
    // Alice is the team's only owner: the operator cannot remove her, and her token keeps working.
    const refused = await cli('member', 'remove', '--team', alice.teamId, '--email', alice.email);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`${alice.email} is the only owner of team ${alice.teamId}`);
    expect((await get(alice.token)).body.state).toBe('disabled');
  });

  it('member remove answers token_record_left, member add makes the token work again', async () => {
    const alice = await server.person();
    const bob = await server.person();
    expect((await cli('member', 'add', '--team', alice.teamId, '--email', bob.email)).code).toBe(0);
    const token = await server.token(bob.personId, alice.teamId);
    expect((await call(server, 'listTeams', {}, token)).status).toBe(200);
    expect((await cli('member', 'remove', '--team', alice.teamId, '--email', bob.email)).code).toBe(0);
    expect((await call(server, 'listTeams', {}, token)).body.code).toBe('token_record_left');
    expect((await cli('member', 'add', '--team', alice.teamId, '--email', bob.email)).code).toBe(0);
    expect((await call(server, 'listTeams', {}, token)).status).toBe(200);
  });

  it('member promote lets the operator remove the former only owner, on the very next call', async () => {
    const alice = await server.person();
    const bob = await server.person();
    expect((await cli('member', 'add', '--team', alice.teamId, '--email', bob.email)).code).toBe(0);
    expect((await cli('member', 'promote', '--team', alice.teamId, '--email', bob.email)).code).toBe(0);
    expect((await cli('member', 'remove', '--team', alice.teamId, '--email', alice.email)).code).toBe(0);
    expectProblem(server, await call(server, 'listTeams', {}, alice.token), 403, 'token_record_left');
  });
});
