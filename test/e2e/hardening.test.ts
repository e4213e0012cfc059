import { connect } from 'node:net';
import Database from 'better-sqlite3';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectProblem, startServer, type Actor, type TestServer } from '../helpers/server.js';

/** Inputs that once hurt (found in review): each now answers a clean 4xx, or is no longer possible. */
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

/** Sends the head and part of a body, then hangs up. */
async function hangUpMidBody(path: string, token: string): Promise<void> {
  const { port } = new URL(server.url);
  await new Promise<void>((resolve) => {
    const socket = connect(Number(port), '127.0.0.1', () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${token}\r\n` +
          'Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n{"jsonrpc"',
      );
      setTimeout(() => socket.destroy(), 50);
      socket.on('close', () => resolve());
    });
  });
  await new Promise((resolve) => setTimeout(resolve, 50));
}

async function mcpClient(actor: Actor, withElicitation = false): Promise<Client> {
  const client = new Client({ name: 'test', version: '1' }, withElicitation ? { capabilities: { elicitation: { form: {} } } } : {});
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${actor.token}` } },
    }),
  );
  return client;
}

describe('hardening', () => {
  it('survives clients hanging up mid-body on /mcp and /v1', async () => {
    const alice = await server.person();
    await hangUpMidBody('/mcp', alice.token);
    await hangUpMidBody('/v1/createLink', alice.token);
    expect((await call(server, 'listTeams', {}, alice.token)).status).toBe(200);
  });

  it('answers 400 bad_request for a body nested too deeply, with or without an Idempotency-Key', async () => {
    const alice = await server.person();
    const deep = `{"team":"${alice.teamId}","links":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    expectProblem(server, await call(server, 'createLinks', deep, alice.token, { 'idempotency-key': 'deep' }), 400, 'bad_request');
    expectProblem(server, await call(server, 'createLinks', deep, alice.token), 400, 'bad_request');
  });

  it('answers 400 bad_request for a string with a lone surrogate, storing nothing', async () => {
    const alice = await server.person();
    const body = `{"team":"${alice.teamId}","destination":"https://example.com/\\ud800"}`;
    expectProblem(server, await call(server, 'createLink', body, alice.token), 400, 'bad_request');
    expect((await call(server, 'listLinks', { team: alice.teamId }, alice.token)).body.data).toEqual([]);
  });

  it('answers 400 bad_request for control characters in q', async () => {
    const alice = await server.person();
    expectProblem(server, await call(server, 'listLinks', { team: alice.teamId, q: 'ab\u0000cd' }, alice.token), 400, 'bad_request', 'q');
  });

  it('never replays to a token limited to another team what the person was answered elsewhere', async () => {
    const alice = await server.person();
    const other = await server.app.ctx.store.teams.add({ name: 'Other', ownerId: alice.personId }, new Date());
    const limited = await server.token(alice.personId, other.id, { limited: true });
    const body = { team: alice.teamId, destination: 'https://example.com/replay' };
    const headers = { 'idempotency-key': 'replay' };
    expect((await call(server, 'createLink', body, alice.token, headers)).status).toBe(200);
    expectProblem(server, await call(server, 'createLink', body, limited, headers), 403, 'outside_token_record');
  });

  it('matches q case-insensitively beyond ASCII, also for 1 and 2 characters', async () => {
    const alice = await server.person();
    await call(server, 'createLink', { team: alice.teamId, destination: 'https://example.com/', note: 'Éclair über alles' }, alice.token);
    for (const q of ['éc', 'ÉCL', 'ÜB', 'Ü', 'über ALLES']) {
      const found = await call(server, 'listLinks', { team: alice.teamId, q }, alice.token);
      expect(found.body.data, q).toHaveLength(1);
    }
  });

  it('keeps one open review request per person and link', async () => {
    const alice = await server.person();
    const made = await call(server, 'createLink', { team: alice.teamId, destination: 'https://example.com/' }, alice.token);
    await server.app.ctx.store.links.setState(made.body.code, 'flagged', new Date());
    const client = await mcpClient(alice);
    for (const reason of ['first', 'second', 'third']) {
      const asked = await client.callTool({ name: 'askForReview', arguments: { code: made.body.code, reason } });
      expect(asked.isError).toBeFalsy();
    }
    await client.close();
    const db = new Database(server.dbPath, { readonly: true });
    expect(db.prepare('SELECT reason FROM reviews').pluck().all()).toEqual(['third']);
    db.close();
  });

  it('checks access before asking the person to confirm a deletion, and names where the link leads', async () => {
    const alice = await server.person();
    const bob = await server.person();
    const made = await call(server, 'createLink', { team: bob.teamId, destination: 'https://example.com/bobs' }, bob.token);
    const questions: string[] = [];
    const client = await mcpClient(alice, true);
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      questions.push(request.params.message);
      return { action: 'accept', content: { confirm: true } };
    });
    const refused = await client.callTool({ name: 'deleteLink', arguments: { code: made.body.code } });
    expect(refused.isError).toBe(true);
    expect(JSON.parse((refused.content as Array<{ text: string }>)[0]!.text)).toMatchObject({ status: 404, code: 'not_found' });
    expect(questions).toEqual([]);
    await client.close();

    const owner = await mcpClient(bob, true);
    owner.setRequestHandler(ElicitRequestSchema, async (request) => {
      questions.push(request.params.message);
      return { action: 'accept', content: { confirm: true } };
    });
    expect((await owner.callTool({ name: 'deleteLink', arguments: { code: made.body.code } })).isError).toBeFalsy();
    expect(questions[0]).toContain('https://example.com/bobs');
    await owner.close();
  });

  it('carries RateLimit headers on the OpenAPI document and on /mcp preflights and refusals', async () => {
    const doc = await fetch(`${server.url}/v1/openapi.json`);
    expect(doc.headers.get('ratelimit-policy')).toBe('"minute";q=600;w=60');
    const preflight = await fetch(`${server.url}/mcp`, { method: 'OPTIONS' });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('ratelimit')).toMatch(/^"minute";r=\d+;t=\d+$/);
    const refused = await fetch(`${server.url}/mcp`, { method: 'POST', headers: { origin: 'http://evil.example' } });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('ratelimit')).toMatch(/^"minute";r=\d+;t=\d+$/);
  });
});
