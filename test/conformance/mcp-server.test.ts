import { execFile } from 'node:child_process';
import { createServer, request, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startServer, type TestServer } from '../helpers/server.js';

/**
 * The MCP conformance suite (@modelcontextprotocol/conformance, the last release that runs on Node 20) against
 * the real server. The suite cannot send a bearer token, so it talks to a loopback proxy that adds one and
 * passes everything else (Host and Origin included) through unchanged; PUBLIC_URL is the proxy's address.
 *
 * Scenarios that apply: initialize, ping, tools/list, several SSE streams, DNS-rebinding protection. The others
 * call fixture tools (`test_simple_text`, ...) or features a link service does not offer (resources, prompts,
 * sampling, logging, completion), so they cannot apply.
 */
const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'server-sse-multiple-streams', 'dns-rebinding-protection'];
const CLI = createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/dist/index.js');

let server: TestServer;
let proxy: Server;
let proxyUrl: string;

beforeAll(async () => {
  const port = await freePort();
  proxyUrl = `http://127.0.0.1:${port}`;
  server = await startServer({ env: { PUBLIC_URL: proxyUrl } });
  const { token } = await server.person();
  const target = new URL(server.url);
  proxy = createServer((req, res) => {
    const upstream = request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, authorization: `Bearer ${token}` } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(port, '127.0.0.1', resolve));
});

afterAll(async () => {
  proxy.closeAllConnections();
  await new Promise((resolve) => proxy.close(resolve));
  await server.stop();
});

function conformance(scenario: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, 'server', '--url', `${proxyUrl}/mcp`, '--scenario', scenario],
      { timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, output: stdout + stderr }),
    );
  });
}

describe('MCP conformance suite (server scenarios)', () => {
  it.each(SCENARIOS)('%s passes', async (scenario) => {
    const { code, output } = await conformance(scenario);
    expect(output).toMatch(/Passed: (\d+)\/\1, 0 failed, 0 warnings/);
    expect(code, output).toBe(0);
  }, 90_000);
});
