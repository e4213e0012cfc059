import type { Server, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import type { RelayedTransport } from './relayed-transport.js';

export interface Session {
  /** The SDK's transport, which answers the session's HTTP requests. */
  http: WebStandardStreamableHTTPServerTransport;
  /** The transport the server is connected to: the SDK's, with questions and answers through the relay. */
  transport: RelayedTransport;
  server: Server;
  /** A session belongs to the person who opened it; anyone else gets "session not found". */
  personId: string;
  lastSeen: number;
}

const IDLE_MS = 60 * 60_000;
const MAX_PER_PERSON = 32;

/**
 * The MCP 2025-11-25 sessions this process has at hand, kept in memory between requests. Only a cache: a session
 * lives in its id (session-id.ts), and one that is not here is opened again from it (endpoint.ts). A session idle
 * for an hour is dropped, and a person keeps at most 32 here, the least recently used dropping first, so memory
 * stays bounded; a dropped session's next request, here or in another process, opens it again.
 */
export class Sessions {
  private readonly open = new Map<string, Session>();
  private readonly byPerson = new Map<string, Set<string>>();
  private readonly timer = setInterval(() => this.closeIdle(Date.now()), 60_000);

  constructor() {
    this.timer.unref();
  }

  add(id: string, session: Session): void {
    const mine = this.byPerson.get(session.personId) ?? new Set<string>();
    if (mine.size >= MAX_PER_PERSON) {
      const oldest = [...mine].sort((a, b) => this.open.get(a)!.lastSeen - this.open.get(b)!.lastSeen)[0]!;
      void this.close(oldest);
    }
    mine.add(id);
    this.byPerson.set(session.personId, mine);
    this.open.set(id, session);
  }

  /** The session, if it is here and belongs to this person. */
  find(id: string, personId: string): Session | null {
    const session = this.open.get(id);
    if (!session || session.personId !== personId) return null;
    session.lastSeen = Date.now();
    return session;
  }

  /** Drops the session from the cache, when it is this one (an id may have been opened again since). */
  forget(id: string, session: Session): void {
    if (this.open.get(id) !== session) return;
    this.open.delete(id);
    const mine = this.byPerson.get(session.personId);
    mine?.delete(id);
    if (mine?.size === 0) this.byPerson.delete(session.personId);
  }

  async close(id: string): Promise<void> {
    const session = this.open.get(id);
    if (!session) return;
    this.forget(id, session);
    await session.http.close();
  }

  async closeAll(): Promise<void> {
    clearInterval(this.timer);
    await Promise.all([...this.open.keys()].map((id) => this.close(id)));
  }

  private closeIdle(now: number): void {
    for (const [id, session] of this.open) if (now - session.lastSeen > IDLE_MS) void this.close(id);
  }
}
