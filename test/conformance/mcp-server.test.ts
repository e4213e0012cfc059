import { createServer, request, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conformance } from '../helpers/conformance.js';
import { freePort, startServer, type TestServer } from '../helpers/server.js';

/**
 * The MCP conformance suite (@modelcontextprotocol/conformance 0.2.0-alpha.12, on Node 22) against the real
 * server. The suite cannot send a bearer token, so it talks to a loopback proxy that adds one and
 * passes everything else (Host and Origin included) through unchanged; PUBLIC_URL is the proxy's address.
 *
 * Scenarios that apply: initialize, the session lifecycle, ping, tools/list, several SSE streams, DNS-rebinding
 * protection. The others call fixture tools (`test_simple_text`, ...) or features a link service does not offer
 * (resources, prompts, sampling, logging, completion), or test resumable SSE polling (server-sse-polling: we keep
 * no event store, so its SHOULDs, a priming event and a retry field, are not met).
 */
const SCENARIOS = ['server-initialize', 'server-session-lifecycle', 'ping', 'tools-list', 'server-sse-multiple-streams', 'dns-rebinding-protection'];

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

describe('MCP conformance suite (server scenarios)', () => {
  it.each(SCENARIOS)('%s passes', async (scenario) => {
    const { code, output } = await conformance(['server', '--url', `${proxyUrl}/mcp`, '--scenario', scenario]);
    expect(output).toMatch(/Passed: (\d+)\/\1, 0 failed, 0 warnings/);
    expect(code, output).toBe(0);
  }, 90_000);
});
