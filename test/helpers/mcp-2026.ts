/** The envelope every 2026-07-28 request carries in `_meta` (no handshake tells the server these). */
export function envelope(capabilities: Record<string, unknown> = {}) {
  return {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': capabilities,
    'io.modelcontextprotocol/clientInfo': { name: 'raw-2026', version: '1' },
  };
}

export interface RawReply {
  status: number;
  headers: Headers;
  body: any;
}

/**
 * Raw MCP 2026-07-28 over HTTP: one JSON-RPC request per POST with the headers the revision requires, built from
 * the body. `headers` overrides them (null leaves one out), so a test can make them disagree.
 */
export function rpc2026(baseUrl: string, capabilities: Record<string, unknown> = {}) {
  async function send(
    token: string | null,
    method: string,
    params: Record<string, unknown>,
    headers: Record<string, string | null> = {},
  ): Promise<RawReply> {
    const name = typeof params.name === 'string' ? { 'mcp-name': params.name } : {};
    const all: Record<string, string | null> = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...name,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    };
    const sent = Object.fromEntries(Object.entries(all).filter((entry): entry is [string, string] => entry[1] !== null));
    const body = { jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: envelope(capabilities) } };
    const res = await fetch(`${baseUrl}/mcp`, { method: 'POST', headers: sent, body: JSON.stringify(body) });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text === '' ? undefined : JSON.parse(text) };
  }

  return {
    send,
    /** tools/call of `name`; `more` adds params beside name and arguments (inputResponses, requestState). */
    call(token: string | null, name: string, args: Record<string, unknown>, headers: Record<string, string | null> = {}, more: Record<string, unknown> = {}) {
      return send(token, 'tools/call', { name, arguments: args, ...more }, headers);
    },
  };
}
