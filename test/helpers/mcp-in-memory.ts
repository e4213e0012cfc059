/**
 * MCP in process, for tests whose point is what a tool answers through MCP rather than HTTP, sessions, sign-in or
 * headers: the SDK's own 1.x Client talks to our MCP server (createMcpServer, as /mcp builds it for a 2025-11-25
 * session) over the SDK's in-memory transport, on a ToolHarness's store, clock and tool context. No server, no
 * port, no build: such tests live in the fast project, and again in store-postgres (McpHarness.open).
 */
import { randomBytes } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ElicitRequestSchema, type ElicitRequest, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { InMemoryTransport, type AuthInfo } from '@modelcontextprotocol/server';
import { RequestStates } from '../../src/mcp/request-state.js';
import { createMcpServer } from '../../src/mcp/server.js';
import type { Caller } from '../../src/shared/caller.js';
import { openPostgresStore } from '../../src/store/postgres/index.js';
import { hasTestPostgres, newMigratedTestDatabase } from './shared-postgres.js';
import { ToolHarness } from './tool-harness.js';

export { PUBLIC_URL } from './tool-harness.js';

/** Answers the server's questions (form elicitation) as the person would. */
export type Elicit = (request: ElicitRequest) => ElicitResult | Promise<ElicitResult>;

/** A ToolHarness whose callers also connect as MCP clients; `close` ends every client and the store. */
export class McpHarness extends ToolHarness {
  private readonly states = new RequestStates(randomBytes(32), this.clock);
  private readonly clients: Client[] = [];

  /**
   * On a SQLite store in memory; in a project that starts PostgreSQL (store-postgres), on a fresh database there,
   * so the same tests judge both stores.
   */
  static async open(): Promise<McpHarness> {
    if (!hasTestPostgres()) return new McpHarness();
    return new McpHarness({ store: await openPostgresStore(await newMigratedTestDatabase()) });
  }

  /**
   * An SDK client connected as the caller signed in with a personal token (as /mcp hands a caller to the server:
   * route.ts's authInfoOf); with `elicit`, it declares form elicitation and answers with it.
   */
  async connect(caller: Caller, elicit?: Elicit): Promise<Client> {
    const client = elicit
      ? new Client({ name: 'in-memory-elicit', version: '1' }, { capabilities: { elicitation: { form: {} } } })
      : new Client({ name: 'in-memory', version: '1' });
    if (elicit) client.setRequestHandler(ElicitRequestSchema, async (request) => elicit(request));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const { personId, scopes, recordTeamId } = caller;
    const authInfo: AuthInfo = { token: 'personal', clientId: 'personal-token', scopes: [...(scopes ?? [])], extra: { caller: { personId, scopes, recordTeamId }, firstStep: null } };
    // The client sends what it sends; the transport hands each message to the server with the caller's sign-in,
    // as the HTTP entry does for every request.
    const send = clientSide.send.bind(clientSide);
    clientSide.send = (message, options) => send(message, { ...options, authInfo });
    await createMcpServer(this.ctx, this.states).connect(serverSide);
    await client.connect(clientSide);
    this.clients.push(client);
    return client;
  }

  /** Closes the clients connected since the last call (each closes its server with it). */
  async disconnect(): Promise<void> {
    await Promise.allSettled(this.clients.splice(0).map((client) => client.close()));
  }

  override async close(): Promise<void> {
    await this.disconnect();
    await this.store.close();
  }
}
