/**
 * deleteLink under MCP 2026-07-28 asks first, statelessly: the question comes back as an input-required result
 * with a signed requestState, and only the person's yes with that very state deletes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REQUEST_STATE_TTL_MS } from '../../src/mcp/request-state.js';
import { call, startServer, type Actor, type TestServer } from '../helpers/server.js';
import { rpc2026 } from '../helpers/mcp-2026.js';

let server: TestServer;
let asking: ReturnType<typeof rpc2026>;
let plain: ReturnType<typeof rpc2026>;

beforeAll(async () => {
  server = await startServer();
  asking = rpc2026(server.url, { elicitation: { form: {} } });
  plain = rpc2026(server.url);
});
afterAll(() => server.stop());

async function newLink(actor: Actor, destination = 'https://example.com/to-delete'): Promise<string> {
  const made = await call(server, 'createLink', { team: actor.teamId, destination }, actor.token);
  expect(made.status).toBe(200);
  return made.body.code;
}

async function stateOf(code: string, actor: Actor): Promise<string> {
  return (await call(server, 'getLink', { code }, actor.token)).body?.state ?? 'gone';
}

/** The first call: the question and its state. */
async function ask(actor: Actor, code: string) {
  const res = await asking.call(actor.token, 'deleteLink', { code });
  expect(res.status).toBe(200);
  return res.body.result;
}

function answer(actor: Actor, code: string, requestState: string, response: Record<string, unknown>) {
  return asking.call(actor.token, 'deleteLink', { code }, {}, { inputResponses: { confirm: response }, requestState });
}

const yes = { action: 'accept', content: { confirm: true } };

describe('deleteLink under 2026-07-28, from a client that can ask', () => {
  it('answers input_required with a question naming the link and its destination; the link stays', async () => {
    const alice = await server.person();
    const code = await newLink(alice);
    const asked = await ask(alice, code);
    expect(asked.resultType).toBe('input_required');
    expect(asked.requestState).toEqual(expect.any(String));
    const question = asked.inputRequests.confirm;
    expect(question.method).toBe('elicitation/create');
    expect(question.params.message).toContain(`${server.url}/${code}`);
    expect(question.params.message).toContain('https://example.com/to-delete');
    expect(question.params.requestedSchema.properties.confirm.type).toBe('boolean');
    expect(await stateOf(code, alice)).toBe('active');
  });

  it("deletes on the person's yes with the same requestState, answering {result: null}", async () => {
    const alice = await server.person();
    const code = await newLink(alice);
    const { requestState } = await ask(alice, code);
    const res = await answer(alice, code, requestState, yes);
    expect(res.status).toBe(200);
    expect(res.body.result.isError).toBeUndefined();
    expect(res.body.result.structuredContent).toEqual({ result: null });
    expect(await stateOf(code, alice)).toBe('gone');
  });

  it('a decline deletes nothing and is an ordinary result saying so', async () => {
    const alice = await server.person();
    const code = await newLink(alice);
    const { requestState } = await ask(alice, code);
    for (const no of [{ action: 'decline' }, { action: 'cancel' }, { action: 'accept', content: { confirm: false } }]) {
      const res = await answer(alice, code, requestState, no);
      expect(res.status).toBe(200);
      expect(res.body.result.isError).toBeUndefined();
      expect(res.body.result.structuredContent).toEqual({ result: null, declined: true });
    }
    expect(await stateOf(code, alice)).toBe('active');
  });

  it('asks even when the assistant passed confirm: true', async () => {
    const alice = await server.person();
    const code = await newLink(alice);
    const res = await asking.call(alice.token, 'deleteLink', { code, confirm: true });
    expect(res.body.result.resultType).toBe('input_required');
    expect(await stateOf(code, alice)).toBe('active');
  });

  const refused = { jsonrpc: '2.0', id: 1, error: { code: -32602, message: expect.stringMatching(/requestState/) } };

  it('a tampered state deletes nothing: -32602', async () => {
    const alice = await server.person();
    const code = await newLink(alice);
    const { requestState } = await ask(alice, code);
    const [payload, signature] = requestState.split('.');
    const flipped = `${payload}.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
    for (const bad of [`${requestState}x`, flipped, 'not-a-state', '']) {
      expect((await answer(alice, code, bad, yes)).body).toMatchObject(refused);
    }
    expect(await stateOf(code, alice)).toBe('active');
  });

  it('a state issued for another link deletes nothing: -32602', async () => {
    const alice = await server.person();
    const first = await newLink(alice);
    const second = await newLink(alice);
    const { requestState } = await ask(alice, first);
    expect((await answer(alice, second, requestState, yes)).body).toMatchObject(refused);
    expect(await stateOf(first, alice)).toBe('active');
    expect(await stateOf(second, alice)).toBe('active');
  });

  it('a state issued to another person deletes nothing, even for a link both may delete: -32602', async () => {
    const alice = await server.person();
    const bob = await server.person();
    await server.app.ctx.store.teams.addMember(alice.teamId, bob.personId, server.clock.now());
    const bobInAliceTeam = { ...bob, teamId: alice.teamId, token: await server.token(bob.personId, alice.teamId) };
    const code = await newLink(alice);
    const { requestState } = await ask(alice, code);
    expect((await answer(bobInAliceTeam, code, requestState, yes)).body).toMatchObject(refused);
    expect(await stateOf(code, alice)).toBe('active');
  });

  it('an expired state deletes nothing: -32602', async () => {
    const alice = await server.person();
    const code = await newLink(alice);
    const { requestState } = await ask(alice, code);
    server.clock.advance(REQUEST_STATE_TTL_MS);
    expect((await answer(alice, code, requestState, yes)).body).toMatchObject(refused);
    expect(await stateOf(code, alice)).toBe('active');
  });

  it("checks access before asking: another team's link is not_found, with no question", async () => {
    const alice = await server.person();
    const mallory = await server.person();
    const code = await newLink(alice);
    const res = await asking.call(mallory.token, 'deleteLink', { code });
    expect(res.body.result.isError).toBe(true);
    expect(JSON.parse(res.body.result.content[0].text)).toMatchObject({ status: 404, code: 'not_found' });
  });
});

describe('deleteLink under 2026-07-28, from a client that cannot ask', () => {
  it('refuses without confirm: true (bad_request on confirm), keeping the link', async () => {
    const alice = await server.person();
    const code = await newLink(alice);
    const res = await plain.call(alice.token, 'deleteLink', { code });
    expect(res.body.result.isError).toBe(true);
    expect(JSON.parse(res.body.result.content[0].text)).toMatchObject({ status: 400, code: 'bad_request', field: 'confirm' });
    expect(await stateOf(code, alice)).toBe('active');
  });

  it('deletes with confirm: true, with no question', async () => {
    const alice = await server.person();
    const code = await newLink(alice);
    const res = await plain.call(alice.token, 'deleteLink', { code, confirm: true });
    expect(res.body.result.structuredContent).toEqual({ result: null });
    expect(await stateOf(code, alice)).toBe('gone');
  });
});
