import type { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import type { Server } from '@modelcontextprotocol/server';

export interface Session {
  transport: NodeStreamableHTTPServerTransport;
  server: Server;
  /** A session belongs to the person who opened it; anyone else gets "session not found". */
  personId: string;
  lastSeen: number;
}

const IDLE_MS = 60 * 60_000;
const MAX_PER_PERSON = 32;

/**
 * Open MCP 2025-11-25 sessions, in this process's memory (clients re-initialize after the 404 that a restart, or a
 * request reaching another process, answers). Idle sessions close after an hour,
 * and a person holds at most 32, the oldest closing first, so memory stays bounded.
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

  /** The session, if it exists and belongs to this person. */
  find(id: string, personId: string): Session | null {
    const session = this.open.get(id);
    if (!session || session.personId !== personId) return null;
    session.lastSeen = Date.now();
    return session;
  }

  forget(id: string): void {
    const session = this.open.get(id);
    if (!session) return;
    this.open.delete(id);
    const mine = this.byPerson.get(session.personId);
    mine?.delete(id);
    if (mine?.size === 0) this.byPerson.delete(session.personId);
  }

  async close(id: string): Promise<void> {
    const session = this.open.get(id);
    this.forget(id);
    await session?.transport.close();
  }

  async closeAll(): Promise<void> {
    clearInterval(this.timer);
    await Promise.all([...this.open.keys()].map((id) => this.close(id)));
  }

  private closeIdle(now: number): void {
    for (const [id, session] of this.open) if (now - session.lastSeen > IDLE_MS) void this.close(id);
  }
}
