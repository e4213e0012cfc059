import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { JSONRPCMessage, JSONRPCResponse, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { AnswerRelay, MAX_ANSWER_BYTES } from '../../../src/mcp/sessions-2025/answer-relay.js';
import { RelayedTransport } from '../../../src/mcp/sessions-2025/relayed-transport.js';
import { ApiError } from '../../../src/errors.js';
import { openSqliteStore } from '../../../src/store/sqlite/index.js';
import type { McpSessionStore, Store } from '../../../src/store/ports.js';
import { TestClock } from '../../helpers/clock.js';

/** Two processes sharing one database file: each with a store (a connection) and a relay of its own. */
let dir: string;
let path: string;
let stores: Store[];
let asking: AnswerRelay;
let other: AnswerRelay;
const clock = new TestClock();
const session = Buffer.alloc(32, 1);
const person = 'person_1';
const answerTo = (id: string | number, content: unknown = { confirm: true }): JSONRPCResponse => ({ jsonrpc: '2.0', id, result: { action: 'accept', content } });
const NOT_ASKED = {
  status: 400,
  code: -32600,
  message: 'Invalid Request: no question of this session waits for an answer under this id (it was never asked, or was answered, withdrawn or expired).',
};

/** How many questions rows hold an answer, and how many there are, read as a third connection would. */
function rows(): { answered: number; all: number } {
  const db = new Database(path, { readonly: true });
  try {
    return db.prepare('SELECT count(answer) AS answered, count(*) AS "all" FROM mcp_questions').get() as { answered: number; all: number };
  } finally {
    db.close();
  }
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'shortlinks-relay-'));
  path = join(dir, 'relay.db');
  stores = [openSqliteStore(path), openSqliteStore(path)];
  asking = new AnswerRelay(stores[0]!.mcpSessions, clock);
  other = new AnswerRelay(stores[1]!.mcpSessions, clock);
});
afterEach(async () => {
  vi.useRealTimers();
  asking.close();
  other.close();
  await Promise.all(stores.map((store) => store.close()));
  rmSync(dir, { recursive: true, force: true });
});

describe('the answer relay', () => {
  it('hands an answer that reached the asking process straight over, leaving nothing behind', async () => {
    const got: JSONRPCResponse[] = [];
    const id = await asking.open(session, person, (answer) => got.push(answer));
    expect(id).toMatch(/^q_[A-Za-z0-9_-]{22}$/);
    expect(rows()).toEqual({ answered: 0, all: 1 });
    expect(await asking.answer(session, answerTo(id))).toBeNull();
    expect(got).toEqual([answerTo(id)]);
    expect(rows()).toEqual({ answered: 0, all: 0 });
  });

  it('passes an answer that reached another process on through the database, once', async () => {
    const got: JSONRPCResponse[] = [];
    const id = await asking.open(session, person, (answer) => got.push(answer));
    expect(await other.answer(session, answerTo(id))).toBeNull();
    await vi.waitFor(() => expect(got).toEqual([answerTo(id)]));
    expect(await other.answer(session, answerTo(id, { again: true }))).toEqual(NOT_ASKED);
    expect(rows()).toEqual({ answered: 0, all: 0 });
    expect(got).toHaveLength(1);
  });

  it('refuses, writing nothing, an answer given in another session, to a question never asked or withdrawn, or to anything else', async () => {
    const got: JSONRPCResponse[] = [];
    const id = await asking.open(session, person, (answer) => got.push(answer));
    const withdrawn = await asking.open(session, person, () => got.push(answerTo('withdrawn')));
    asking.forget(withdrawn);
    await vi.waitFor(() => expect(rows().all).toBe(1));
    for (const relay of [asking, other]) {
      expect(await relay.answer(Buffer.alloc(32, 2), answerTo(id))).toEqual(NOT_ASKED);
      expect(await relay.answer(session, answerTo(withdrawn))).toEqual(NOT_ASKED);
      expect(await relay.answer(session, answerTo(`q_${'A'.repeat(22)}`))).toEqual(NOT_ASKED);
      for (const odd of [0, 'q_short', `x_${'a'.repeat(22)}`]) expect(await relay.answer(session, answerTo(odd))).toEqual(NOT_ASKED);
    }
    expect(rows()).toEqual({ answered: 0, all: 1 });
    expect(got).toEqual([]);
  });

  it(`refuses an answer over ${MAX_ANSWER_BYTES} bytes to a real question, which still takes a proper one`, async () => {
    const got: JSONRPCResponse[] = [];
    const id = await asking.open(session, person, (answer) => got.push(answer));
    const padded = answerTo(id, { confirm: true, pad: 'x'.repeat(MAX_ANSWER_BYTES) });
    const refusal = { status: 413, code: -32600, message: `Invalid Request: an answer to a question may hold at most ${MAX_ANSWER_BYTES} bytes.` };
    expect(await other.answer(session, padded)).toEqual(refusal);
    expect(await asking.answer(session, padded)).toEqual(refusal);
    expect(rows()).toEqual({ answered: 0, all: 1 });
    expect(await other.answer(session, answerTo(id))).toBeNull();
    await vi.waitFor(() => expect(got).toEqual([answerTo(id)]));
  });

  it('opens at most 5 questions per person, in all processes together', async () => {
    for (let i = 0; i < 3; i++) await asking.open(Buffer.alloc(32, i), person, () => {});
    for (let i = 0; i < 2; i++) await other.open(session, person, () => {});
    for (const relay of [asking, other]) {
      const refused = await relay.open(session, person, () => {}).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(ApiError);
      expect(refused).toMatchObject({
        status: 429,
        code: 'too_many_requests',
        message: '5 questions to you are waiting for an answer already, the most one person may have; answer or cancel one first.',
      });
    }
    expect(rows().all).toBe(5);
    await asking.open(session, 'person_2', () => {});
  });

  it('holds at most its cap of questions in one process, whoever asks', async () => {
    const small = new AnswerRelay(stores[0]!.mcpSessions, clock, { perPerson: 5, perProcess: 3 });
    try {
      const ids = [];
      for (let i = 0; i < 3; i++) ids.push(await small.open(session, `person_${i}`, () => {}));
      await expect(small.open(session, 'person_9', () => {})).rejects.toMatchObject({
        status: 429,
        code: 'too_many_requests',
        message: 'The service is waiting on 3 questions to people already, the most it holds at once; try again in a few minutes.',
      });
      expect(rows().all).toBe(3);
      small.forget(ids[0]!);
      await small.open(session, 'person_9', () => {});
    } finally {
      small.close();
    }
  });

  it('looks in the database only when another process committed, once for all its questions', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const calls: string[][] = [];
    const counted: McpSessionStore = { ...stores[0]!.mcpSessions };
    counted.takeAnswers = (ids) => {
      calls.push([...ids]);
      return stores[0]!.mcpSessions.takeAnswers(ids);
    };
    const relay = new AnswerRelay(counted, clock, { perPerson: 100, perProcess: 200 });
    try {
      const got: JSONRPCResponse[] = [];
      const ids = [];
      for (let i = 0; i < 50; i++) ids.push(await relay.open(session, person, (answer) => got.push(answer)));
      // Ten seconds of waiting with nothing committed elsewhere: not one query.
      await vi.advanceTimersByTimeAsync(10_000);
      expect(calls).toEqual([]);
      // Another process commits (anything at all) three times: one query for all fifty questions each time.
      for (let i = 0; i < 3; i++) {
        await stores[1]!.mcpSessions.end(Buffer.alloc(32, 10 + i), new Date(Date.now() + 60_000), clock.now());
        await vi.advanceTimersByTimeAsync(1_000);
      }
      expect(calls).toHaveLength(3);
      for (const asked of calls) expect(asked.sort()).toEqual([...ids].sort());
      // An answer through the other process is one more.
      await other.answer(session, answerTo(ids[7]!));
      await vi.advanceTimersByTimeAsync(1_000);
      expect(calls).toHaveLength(4);
      expect(got).toEqual([answerTo(ids[7]!)]);
    } finally {
      relay.close();
    }
  });
});

describe('a relayed transport', () => {
  /** The SDK's transport stood in for by what the relayed one calls on it. */
  function setUp() {
    const sent: JSONRPCMessage[] = [];
    const http = { send: async (message: JSONRPCMessage) => void sent.push(message) } as unknown as WebStandardStreamableHTTPServerTransport;
    const transport = new RelayedTransport(http, asking, session, person);
    const received: JSONRPCMessage[] = [];
    transport.onmessage = (message) => void received.push(message);
    const fromClient = (message: JSONRPCMessage) => (http as unknown as { onmessage: (m: JSONRPCMessage) => void }).onmessage(message);
    return { transport, sent, received, fromClient };
  }
  const call = { jsonrpc: '2.0' as const, id: 5, method: 'tools/call', params: { name: 'deleteLink', arguments: { code: 'abc' } } };
  const question = { jsonrpc: '2.0' as const, id: 0, method: 'elicitation/create', params: { message: 'Delete?', requestedSchema: { type: 'object' as const, properties: {} } } };

  it("asks under the relay's id and hands the answer to the server under its own", async () => {
    const { transport, sent, received } = setUp();
    await transport.send(question, { relatedRequestId: 5 });
    const asked = sent[0] as { id: string };
    expect(asked).toMatchObject({ method: 'elicitation/create', params: question.params });
    expect(asked.id).toMatch(/^q_/);
    expect(await transport.answer(answerTo(asked.id))).toBeNull();
    expect(received).toEqual([answerTo(0)]);
  });

  it('asks the question opened for the call beforehand, and refuses one too many as the call opens it', async () => {
    const { transport, sent } = setUp();
    for (let i = 0; i < 5; i++) await transport.openFor(i);
    expect(rows().all).toBe(5);
    await expect(transport.openFor(9)).rejects.toMatchObject({ status: 429, code: 'too_many_requests' });
    await transport.send(question, { relatedRequestId: 3 });
    expect(rows().all).toBe(5);
    // The call is answered: the questions opened for it go, asked or not.
    await transport.send({ jsonrpc: '2.0', id: 3, result: {} });
    await transport.send({ jsonrpc: '2.0', id: 4, result: {} });
    await vi.waitFor(() => expect(rows().all).toBe(3));
    expect(await transport.answer(answerTo((sent[0] as { id: string }).id))).toEqual(NOT_ASKED);
  });

  it('withdraws a question under the id the client knows, and then takes no answer to it', async () => {
    const { transport, sent, received } = setUp();
    await transport.send(question, { relatedRequestId: 5 });
    const asked = (sent[0] as { id: string }).id;
    await transport.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 0, reason: 'timed out' } });
    expect(sent[1]).toEqual({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: asked, reason: 'timed out' } });
    await vi.waitFor(() => expect(rows().all).toBe(0));
    expect(await transport.answer(answerTo(asked))).toEqual(NOT_ASKED);
    expect(received).toEqual([]);
  });

  it('cancels a call whose POST closed before it was answered, and withdraws the question opened for it', async () => {
    const { transport, received, fromClient } = setUp();
    fromClient(call);
    fromClient({ ...call, id: 6 });
    await transport.openFor(5);
    await transport.send({ jsonrpc: '2.0', id: 6, result: {} });
    transport.closed([5, 6]);
    expect(received).toEqual([
      call,
      { ...call, id: 6 },
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 5, reason: 'The request was closed.' } },
    ]);
    await vi.waitFor(() => expect(rows().all).toBe(0));
    // Closed again (the close of a POST is told once, but whatever): nothing more.
    transport.closed([5]);
    expect(received).toHaveLength(3);
  });

  it('passes requests and notifications from the client to the server as they are, and no answer', () => {
    const { received, fromClient } = setUp();
    const list = { jsonrpc: '2.0' as const, id: 5, method: 'tools/list', params: {} };
    fromClient(list);
    fromClient({ jsonrpc: '2.0', method: 'notifications/initialized' });
    fromClient(answerTo(0));
    expect(received).toEqual([list, { jsonrpc: '2.0', method: 'notifications/initialized' }]);
  });
});
