/**
 * deleteLink's question on an MCP 2025-11-25 session that declared elicitation (issue 20, items 1, 2 and part of
 * 9): a question lasts no longer than the POST of its call, waits without a query per question, is capped per
 * person, takes only a real answer of a few KiB, and a yes the client brings along itself is refused. Raw HTTP
 * against the real server (SQLite, or PostgreSQL under the postgres project), reading the calls' SSE streams.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { McpSessionStore } from '../../src/store/ports.js';
import { rpc2026 } from '../helpers/mcp-2026.js';
import { call, startServer, type Actor, type TestServer } from '../helpers/server.js';

const PROTOCOL = '2025-11-25';
const NOT_ASKED =
  'Invalid Request: no question of this session waits for an answer under this id (it was never asked, or was answered, withdrawn or expired).';

let server: TestServer;
const pending: AbortController[] = [];

beforeAll(async () => {
  server = await startServer();
});
afterEach(() => {
  for (const controller of pending.splice(0)) controller.abort();
  vi.restoreAllMocks();
});
afterAll(() => server.stop());

function headers(token: string, session?: string): Record<string, string> {
  return {
    authorization: `Bearer ${token}`,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': PROTOCOL,
    ...(session ? { 'mcp-session-id': session } : {}),
  };
}

function post(token: string, session: string | undefined, body: unknown, signal?: AbortSignal): Promise<Response> {
  return fetch(`${server.url}/mcp`, { method: 'POST', headers: headers(token, session), body: JSON.stringify(body), signal });
}

/** A session of the person whose client declared form elicitation. */
async function openSession(actor: Actor): Promise<string> {
  const initialize = {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: PROTOCOL, capabilities: { elicitation: { form: {} } }, clientInfo: { name: 'raw', version: '1' } },
  };
  const opened = await post(actor.token, undefined, initialize);
  expect(opened.status).toBe(200);
  await opened.text();
  const session = opened.headers.get('mcp-session-id')!;
  expect((await post(actor.token, session, { jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
  return session;
}

/** The JSON-RPC messages of an SSE stream, one at a time. */
function messages(res: Response): () => Promise<any> {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  const queue: unknown[] = [];
  let buffered = '';
  return async () => {
    while (queue.length === 0) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the stream ended: ${buffered}`);
      const events = (buffered + value).split('\n\n');
      buffered = events.pop()!;
      for (const event of events) {
        const data = event.split('\n').find((line) => line.startsWith('data: ') && line.length > 6);
        if (data) queue.push(JSON.parse(data.slice(6)));
      }
    }
    return queue.shift();
  };
}

/** tools/call deleteLink on the session, its POST left open: the first message on its stream, and how to leave. */
async function deleteCall(actor: Actor, session: string, code: string, id = 1) {
  const controller = new AbortController();
  pending.push(controller);
  const body = { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'deleteLink', arguments: { code } } };
  const res = await post(actor.token, session, body, controller.signal);
  expect(res.status).toBe(200);
  const next = messages(res);
  return { first: await next(), next, leave: () => controller.abort() };
}

async function newLink(actor: Actor): Promise<string> {
  const made = await call(server, 'createLink', { team: actor.teamId, destination: 'https://example.com/asked' }, actor.token);
  expect(made.status).toBe(200);
  return made.body.code;
}

async function stateOf(actor: Actor, code: string): Promise<string> {
  return (await call(server, 'getLink', { code }, actor.token)).body?.state ?? 'gone';
}

const yes = (id: string, content: unknown = { confirm: true }) => ({ jsonrpc: '2.0', id, result: { action: 'accept', content } });

/** The store the server's relay uses, to count and watch what it is asked. */
const questions = (): McpSessionStore => server.app.ctx.store.mcpSessions;

describe('a question on a 2025-11-25 session', () => {
  it('ends when the POST of its call closes: the question is withdrawn, and a yes after it deletes nothing', async () => {
    const alice = await server.person();
    const session = await openSession(alice);
    const code = await newLink(alice);
    const withdraw = vi.spyOn(questions(), 'withdraw');
    const asked = await deleteCall(alice, session, code);
    expect(asked.first).toMatchObject({ method: 'elicitation/create', id: expect.stringMatching(/^q_/) });
    asked.leave();
    await vi.waitFor(() => expect(withdraw).toHaveBeenCalledWith(expect.any(Buffer), asked.first.id), { timeout: 5_000 });
    const late = await post(alice.token, session, yes(asked.first.id));
    expect(late.status).toBe(400);
    expect(await late.json()).toEqual({ jsonrpc: '2.0', error: { code: -32600, message: NOT_ASKED }, id: null });
    expect(await stateOf(alice, code)).toBe('active');
  });

  it('still deletes on a yes while the call waits, answering the call on its own stream', async () => {
    const alice = await server.person();
    const session = await openSession(alice);
    const code = await newLink(alice);
    const asked = await deleteCall(alice, session, code);
    expect((await post(alice.token, session, yes(asked.first.id))).status).toBe(202);
    expect(await asked.next()).toMatchObject({ id: 1, result: { structuredContent: { result: null } } });
    expect(await stateOf(alice, code)).toBe('gone');
  });

  it('waits without asking the database again and again, however many questions wait', async () => {
    const store = questions();
    const counts: Record<string, number> = {};
    const asked: string[][] = [];
    for (const name of ['ended', 'ask', 'answer', 'takeAnswers', 'withdraw', 'end'] as const) {
      const real = store[name].bind(store) as (...args: unknown[]) => Promise<unknown>;
      vi.spyOn(store, name).mockImplementation(((...args: unknown[]) => {
        counts[name] = (counts[name] ?? 0) + 1;
        if (name === 'takeAnswers') asked.push([...(args[0] as string[])]);
        return real(...args);
      }) as never);
    }
    const ids: string[] = [];
    for (let p = 0; p < 4; p++) {
      const person = await server.person();
      const session = await openSession(person);
      const code = await newLink(person);
      for (let i = 0; i < 5; i++) ids.push((await deleteCall(person, session, code, i + 1)).first.id);
    }
    expect(ids).toHaveLength(20);
    for (const key of Object.keys(counts)) delete counts[key];
    asked.length = 0;
    // Half a second of twenty questions waiting (a look every 100 ms per question was 100 reads here).
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(Object.keys(counts).filter((name) => name !== 'takeAnswers')).toEqual([]);
    expect(counts.takeAnswers ?? 0).toBeLessThanOrEqual(5);
    for (const looked of asked) expect(looked).toHaveLength(20);
  });

  it('opens at most 5 per person: the 6th call is a 429 too_many_requests tool error, and a slot frees when a call ends', async () => {
    const alice = await server.person();
    const session = await openSession(alice);
    const code = await newLink(alice);
    const calls = [];
    for (let i = 0; i < 5; i++) calls.push(await deleteCall(alice, session, code, i + 1));
    expect(calls.every((c) => c.first.method === 'elicitation/create')).toBe(true);
    // Another session of the same person counts too.
    const refused = await deleteCall(alice, await openSession(alice), code, 6);
    expect(refused.first).toMatchObject({ id: 6, result: { isError: true } });
    expect(JSON.parse(refused.first.result.content[0].text)).toEqual({
      type: `${server.url}/docs/errors#too_many_requests`,
      title: 'Too many requests',
      status: 429,
      code: 'too_many_requests',
      detail: '5 questions to you are waiting for an answer already, the most one person may have; answer or cancel one first.',
      field: null,
    });
    const withdraw = vi.spyOn(questions(), 'withdraw');
    calls[0]!.leave();
    await vi.waitFor(() => expect(withdraw).toHaveBeenCalled(), { timeout: 5_000 });
    expect((await deleteCall(alice, session, code, 7)).first.method).toBe('elicitation/create');
    expect(await stateOf(alice, code)).toBe('active');
  });
});

describe('an answer on a 2025-11-25 session', () => {
  it('to no question open in the session is refused with 400, and nothing is written', async () => {
    const [alice, mallory] = [await server.person(), await server.person()];
    const session = await openSession(alice);
    const code = await newLink(alice);
    const asked = await deleteCall(alice, session, code);
    const answer = vi.spyOn(questions(), 'answer');
    const theirs = await openSession(mallory);
    for (const [token, where, id] of [
      [mallory.token, theirs, asked.first.id],
      [alice.token, session, `q_${'A'.repeat(22)}`],
      [alice.token, session, 0],
    ] as const) {
      const res = await post(token, where, { jsonrpc: '2.0', id, result: { action: 'accept', content: { confirm: true } } });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ jsonrpc: '2.0', error: { code: -32600, message: NOT_ASKED }, id: null });
    }
    // Two looked for an open question and wrote nothing; the one that cannot name a question never reached the store.
    expect(answer).toHaveBeenCalledTimes(2);
    for (const result of answer.mock.results) await expect(result.value).resolves.toBe(false);
    expect(await questions().takeAnswers([asked.first.id, `q_${'A'.repeat(22)}`])).toEqual([]);
    expect(await stateOf(alice, code)).toBe('active');
  });

  it('over 4 KiB, to a real question, is refused with 413 without touching the store; the question still takes a yes', async () => {
    const alice = await server.person();
    const session = await openSession(alice);
    const code = await newLink(alice);
    const asked = await deleteCall(alice, session, code);
    const answer = vi.spyOn(questions(), 'answer');
    const big = await post(alice.token, session, yes(asked.first.id, { confirm: true, note: 'x'.repeat(1024 * 1024) }));
    expect(big.status).toBe(413);
    expect(await big.json()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32600, message: 'Invalid Request: an answer to a question may hold at most 4096 bytes.' },
      id: null,
    });
    expect(answer).not.toHaveBeenCalled();
    expect((await post(alice.token, session, yes(asked.first.id))).status).toBe(202);
    expect(await asked.next()).toMatchObject({ id: 1, result: { structuredContent: { result: null } } });
  });
});

describe('a 2026-07-28 answer brought into a 2025-11-25 session', () => {
  it('is refused with -32602, and nothing is deleted', async () => {
    const alice = await server.person();
    const code = await newLink(alice);
    // A state issued for this very person, tool and link, with the person's yes beside it.
    const asked = await rpc2026(server.url, { elicitation: { form: {} } }).call(alice.token, 'deleteLink', { code });
    const { requestState } = asked.body.result;
    expect(requestState).toEqual(expect.any(String));
    const session = await openSession(alice);
    const params = { name: 'deleteLink', arguments: { code }, inputResponses: { confirm: { action: 'accept', content: { confirm: true } } }, requestState };
    const res = await post(alice.token, session, { jsonrpc: '2.0', id: 3, method: 'tools/call', params });
    expect(res.status).toBe(200);
    expect(await messages(res)()).toEqual({
      jsonrpc: '2.0',
      id: 3,
      error: {
        code: -32602,
        message:
          'In a 2025-11-25 session the person is asked within the call; inputResponses and requestState belong to 2026-07-28 requests. Call again without them.',
      },
    });
    expect(await stateOf(alice, code)).toBe('active');
  });
});
