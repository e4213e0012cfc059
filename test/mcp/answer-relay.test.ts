import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JSONRPCMessage, JSONRPCResponse, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { AnswerRelay } from '../../src/mcp/answer-relay.js';
import { RelayedTransport } from '../../src/mcp/relayed-transport.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import type { Store } from '../../src/store/ports.js';
import { TestClock } from '../helpers/clock.js';

/** Two processes sharing one database: each with a relay of its own. */
let store: Store;
let asking: AnswerRelay;
let other: AnswerRelay;
const session = Buffer.alloc(32, 1);
const answerTo = (id: string | number): JSONRPCResponse => ({ jsonrpc: '2.0', id, result: { action: 'accept', content: { confirm: true } } });

beforeEach(() => {
  store = openSqliteStore(':memory:');
  const clock = new TestClock();
  asking = new AnswerRelay(store.mcpSessions, clock);
  other = new AnswerRelay(store.mcpSessions, clock);
});
afterEach(async () => {
  asking.close();
  other.close();
  await store.close();
});

/** Resolves with what `deliver` got, or 'nothing' after half a second (five looks in the database). */
function delivered(got: JSONRPCResponse[]): Promise<JSONRPCResponse | 'nothing'> {
  return new Promise((resolve) => {
    const started = Date.now();
    const look = setInterval(() => {
      if (got.length > 0 || Date.now() - started > 500) {
        clearInterval(look);
        resolve(got[0] ?? 'nothing');
      }
    }, 10);
  });
}

describe('the answer relay', () => {
  it('hands an answer that reached the asking process straight over', async () => {
    const got: JSONRPCResponse[] = [];
    const id = asking.expect(session, (answer) => got.push(answer));
    expect(id).toMatch(/^q_[A-Za-z0-9_-]{22}$/);
    await asking.answer(session, answerTo(id));
    expect(got).toEqual([answerTo(id)]);
  });

  it('passes an answer that reached another process on through the database, once', async () => {
    const got: JSONRPCResponse[] = [];
    const id = asking.expect(session, (answer) => got.push(answer));
    await other.answer(session, answerTo(id));
    expect(await delivered(got)).toEqual(answerTo(id));
    expect(await store.mcpSessions.takeAnswer(session, id)).toBeNull();
    expect(got).toHaveLength(1);
  });

  it('never takes an answer given in another session, or to another question', async () => {
    const got: JSONRPCResponse[] = [];
    const id = asking.expect(session, (answer) => got.push(answer));
    await other.answer(Buffer.alloc(32, 2), answerTo(id));
    await asking.answer(Buffer.alloc(32, 2), answerTo(id));
    await other.answer(session, answerTo(asking.expect(session, () => {})));
    expect(await delivered(got)).toBe('nothing');
  });

  it('stops waiting for a question it was told to forget', async () => {
    const got: JSONRPCResponse[] = [];
    const id = asking.expect(session, (answer) => got.push(answer));
    asking.forget(id);
    await other.answer(session, answerTo(id));
    await asking.answer(session, answerTo(id));
    expect(await delivered(got)).toBe('nothing');
  });

  it('leaves nothing in the database for an answer to anything but one of its questions', async () => {
    for (const id of [0, 'q_short', `x_${'a'.repeat(22)}`]) {
      await other.answer(session, answerTo(id));
      expect(await store.mcpSessions.takeAnswer(session, String(id))).toBeNull();
    }
  });
});

describe('a relayed transport', () => {
  /** The SDK's transport stood in for by what the relayed one calls on it. */
  function setUp() {
    const sent: JSONRPCMessage[] = [];
    const http = { send: async (message: JSONRPCMessage) => void sent.push(message) } as unknown as WebStandardStreamableHTTPServerTransport;
    const transport = new RelayedTransport(http, asking, session);
    const received: JSONRPCMessage[] = [];
    transport.onmessage = (message) => void received.push(message);
    const fromClient = (message: JSONRPCMessage) => (http as unknown as { onmessage: (m: JSONRPCMessage) => void }).onmessage(message);
    return { transport, sent, received, fromClient };
  }
  const question = { jsonrpc: '2.0' as const, id: 0, method: 'elicitation/create', params: { message: 'Delete?', requestedSchema: { type: 'object' as const, properties: {} } } };

  it("asks under the relay's id and hands the answer to the server under its own", async () => {
    const { transport, sent, received, fromClient } = setUp();
    await transport.send(question);
    const asked = sent[0] as { id: string };
    expect(asked).toMatchObject({ method: 'elicitation/create', params: question.params });
    expect(asked.id).toMatch(/^q_/);
    fromClient(answerTo(asked.id));
    await new Promise((resolve) => setImmediate(resolve));
    expect(received).toEqual([answerTo(0)]);
  });

  it('withdraws a question under the id the client knows, and then takes no answer to it', async () => {
    const { transport, sent, received, fromClient } = setUp();
    await transport.send(question);
    const asked = (sent[0] as { id: string }).id;
    await transport.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 0, reason: 'timed out' } });
    expect(sent[1]).toEqual({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: asked, reason: 'timed out' } });
    fromClient(answerTo(asked));
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(received).toEqual([]);
  });

  it('passes requests and notifications from the client to the server as they are', () => {
    const { received, fromClient } = setUp();
    const call = { jsonrpc: '2.0' as const, id: 5, method: 'tools/list', params: {} };
    fromClient(call);
    expect(received).toEqual([call]);
  });
});
