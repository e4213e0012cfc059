import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tools as registry } from '../../src/tools/index.js';
import { startServer, type Actor, type TestServer } from '../helpers/server.js';

/** The MCP Inspector's CLI, as a person would run it, lists and calls our tools with a personal token. */
const LAUNCHER = join(
  dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector/package.json')),
  'clients/launcher/build/index.js',
);

let server: TestServer;
let alice: Actor;
let home: string;

beforeAll(async () => {
  server = await startServer();
  alice = await server.person();
  // The Inspector keeps state under $HOME; give it a throwaway one.
  home = mkdtempSync(join(tmpdir(), 'inspector-home-'));
});
afterAll(async () => {
  await server.stop();
  rmSync(home, { recursive: true, force: true });
});

function inspector(...args: string[]): Promise<any> {
  const base = ['--cli', `${server.url}/mcp`, '--transport', 'http', '--header', `Authorization: Bearer ${alice.token}`, '--format', 'json'];
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [LAUNCHER, ...base, ...args], { env: { ...process.env, HOME: home }, timeout: 60_000 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(JSON.parse(stdout)),
    );
  });
}

describe('MCP Inspector CLI', () => {
  it('lists every tool of the registry, in its order', async () => {
    const listed = await inspector('--method', 'tools/list');
    expect(listed.result.tools.map((t: { name: string }) => t.name)).toEqual(registry.map((tool) => tool.name));
  }, 90_000);

  it('calls createLink and gets the link back as structured content', async () => {
    const args = JSON.stringify({ team: alice.teamId, destination: 'https://example.com/inspector' });
    const called = await inspector('--method', 'tools/call', '--tool-name', 'createLink', '--tool-args-json', args);
    expect(called.result.isError).toBeFalsy();
    expect(called.result.structuredContent).toMatchObject({ destination: 'https://example.com/inspector', state: 'active' });
    const listed = await server.app.ctx.store.links.list(alice.teamId, { state: null, q: null }, { limit: 10, after: null });
    expect(listed.map((l) => l.code)).toEqual([called.result.structuredContent.code]);
  }, 90_000);
});
