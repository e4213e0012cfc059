import pg from 'pg';
import type { StoreChanges } from '../ports.js';
import { transaction, type Queryable } from './query.js';

const CHANNEL = 'shortlinks_changes';
/** NOTIFY payloads stop at 8,000 bytes; a change touching more keys than fit is told as "anything". */
const MAX_PAYLOAD = 7_000;
/** How long a barrier waits for its own notification before it assumes the listener is gone (see catchUp). */
const BARRIER_TIMEOUT_MS = 2_000;

/**
 * `sent`, or a rejection once BARRIER_TIMEOUT_MS passed without it: a database that stopped answering must not hold
 * the requests waiting for a barrier, which go on as told "anything" (their own reads then answer 503 or not).
 */
function withinBarrierTime(sent: Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('barrier not sent in time')), BARRIER_TIMEOUT_MS);
  });
  sent.catch(() => {});
  return Promise.race([sent, late]).finally(() => clearTimeout(timer));
}

/**
 * What one notification says: link keys a change touched, settings, anything, or a process's barrier. `from`
 * names the sending process, which told its own listeners already and skips the echo.
 */
type Message = ({ keys: string[] } | { settings: true } | { access: true } | { answers: true } | { anything: true } | { barrier: string }) & { from?: string };

/**
 * What a statement that filled in an MCP question's answer sends (mcp-sessions.ts), within itself, so every process
 * waiting on questions, the one that filled it in included (no `from`), looks for its answers.
 */
export const ANSWER_NEWS = { channel: CHANNEL, payload: JSON.stringify({ answers: true } satisfies Message) } as const;

/**
 * StoreChanges over PostgreSQL's LISTEN/NOTIFY. A transaction that changes links or settings sends a notification
 * that PostgreSQL delivers, at commit, to every process listening (this one included), in commit order.
 *
 * catchUp() is exact: it sends a notification of its own (a barrier) and waits until this process's listener
 * receives it. Notifications arrive in commit order, so by then every change committed before catchUp began has
 * been told. Calls in the same turn of the event loop share one barrier, so under load it costs one round trip per
 * turn, not per request. While the listening connection is down, every catchUp tells "anything": caches are then
 * dropped on every request and reads go to the database, which is slower but never wrong.
 */
export class PgChanges implements StoreChanges {
  private readonly listeners: Array<(keys: string[] | null) => void> = [];
  private readonly settingsListeners: Array<() => void> = [];
  private readonly accessListeners: Array<() => void> = [];
  private readonly answersListeners = new Set<() => void>();
  private readonly waiting = new Map<string, () => void>();
  private readonly self = `${process.pid}-${Math.random().toString(36).slice(2)}`;
  private barriers = 0;
  private next: Promise<void> | null = null;
  private listening: pg.Client | null = null;
  private closed = false;

  private constructor(
    private readonly url: string,
    private readonly pool: Queryable,
  ) {}

  static async start(url: string, pool: Queryable): Promise<PgChanges> {
    const changes = new PgChanges(url, pool);
    await changes.listen();
    return changes;
  }

  subscribe(listener: (keys: string[] | null) => void): void {
    this.listeners.push(listener);
  }

  /** Calls `listener` when the settings (limits, blocklist) changed, here or in another process. */
  onSettings(listener: () => void): void {
    this.settingsListeners.push(listener);
  }

  catchUp(): Promise<void> {
    if (!this.listening) {
      this.tell({ anything: true });
      return Promise.resolve();
    }
    this.next ??= new Promise<void>((resolve) => setImmediate(() => {
      this.next = null;
      void this.barrier().then(resolve);
    }));
    return this.next;
  }

  /** Calls `listener` when who may do what changed (tokens, memberships, agreeing to the terms), here or elsewhere. */
  onAccess(listener: () => void): void {
    this.accessListeners.push(listener);
  }

  /**
   * Calls `listener` when an MCP question may have been answered (ANSWER_NEWS), or when notifications may have been
   * missed; the returned function stops it.
   */
  onAnswers(listener: () => void): () => void {
    this.answersListeners.add(listener);
    return () => this.answersListeners.delete(listener);
  }

  /**
   * Runs a write that changes access (tokens, memberships, agreeing to the terms) or settings (limits, blocklist)
   * in one transaction on `pool`, telling every process within it, so the news commits with the change or not at
   * all; this process is told as the transaction ends, whether or not it went through (a COMMIT whose answer was
   * lost may have: forgetting is always safe).
   */
  async announced<T>(pool: pg.Pool, kind: 'access' | 'settings', work: (client: Queryable) => Promise<T>): Promise<T> {
    const news = kind === 'access' ? ({ access: true } as const) : ({ settings: true } as const);
    try {
      return await transaction(pool, async (client) => {
        const result = await work(client);
        await this.send(client, JSON.stringify({ ...news, from: this.self } satisfies Message));
        return result;
      });
    } finally {
      this.tell(news);
    }
  }

  /** Within a transaction that changed links: tells every process at commit (see told() for this one). */
  async notifyLinks(client: Queryable, keys: Array<string | null>): Promise<void> {
    const touched = keys.filter((key): key is string => key !== null);
    const payload = JSON.stringify({ keys: touched, from: this.self } satisfies Message);
    const anything = JSON.stringify({ anything: true, from: this.self } satisfies Message);
    await this.send(client, payload.length <= MAX_PAYLOAD ? payload : anything);
  }

  /** After this process's own transaction committed: told at once, without waiting for the notification's echo. */
  told(keys: Array<string | null>): void {
    this.tell({ keys: keys.filter((key): key is string => key !== null) });
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.listening;
    this.listening = null;
    for (const release of this.waiting.values()) release();
    await client?.end().catch(() => undefined);
  }

  private async send(client: Queryable, payload: string): Promise<void> {
    await client.query('SELECT pg_notify($1, $2)', [CHANNEL, payload]);
  }

  /**
   * Sent on a pooled connection, so barriers of successive turns travel side by side rather than queueing on the
   * listener's one connection. The listener is given up only when its own barrier does not come back in time once
   * sent; a pool too busy to send it is not the listener's fault, and the waiting requests are told "anything".
   */
  private async barrier(): Promise<void> {
    const client = this.listening;
    if (!client) return this.tell({ anything: true });
    const id = `${this.self}:${++this.barriers}`;
    const arrived = new Promise<void>((resolve) => this.waiting.set(id, resolve));
    let timer: NodeJS.Timeout | undefined;
    try {
      await withinBarrierTime(this.send(this.pool, JSON.stringify({ barrier: id } satisfies Message)));
    } catch {
      this.waiting.delete(id);
      return this.tell({ anything: true });
    }
    try {
      timer = setTimeout(() => this.lost(client), BARRIER_TIMEOUT_MS);
      await arrived;
    } finally {
      clearTimeout(timer);
      this.waiting.delete(id);
    }
  }

  private async listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url });
    client.on('notification', (message) => {
      if (message.channel !== CHANNEL || message.payload === undefined) return;
      this.receive(message.payload);
    });
    // Only about this connection: a late event of one given up earlier must not end its successor.
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.closed) return void (await client.end().catch(() => undefined));
    this.listening = client;
  }

  private receive(payload: string): void {
    let message: Message;
    try {
      message = JSON.parse(payload) as Message;
    } catch {
      message = { anything: true };
    }
    if ('barrier' in message) return this.waiting.get(message.barrier)?.();
    if (message.from !== this.self) this.tell(message);
  }

  private tell(message: Exclude<Message, { barrier: string }>): void {
    if ('settings' in message || 'anything' in message) for (const listener of this.settingsListeners) listener();
    if ('access' in message || 'anything' in message) for (const listener of this.accessListeners) listener();
    if ('answers' in message || 'anything' in message) for (const listener of this.answersListeners) listener();
    if ('settings' in message || 'access' in message || 'answers' in message) return;
    const keys = 'keys' in message ? message.keys : null;
    for (const listener of this.listeners) listener(keys);
  }

  /**
   * The listening connection broke or stopped answering: what was missed is unknown, so everything is told as
   * changed, waiting barriers are let go, and a new connection is made in the background.
   */
  private lost(client: pg.Client): void {
    if (client !== this.listening) return;
    this.listening = null;
    this.tell({ anything: true });
    for (const release of this.waiting.values()) release();
    void client.end().catch(() => undefined);
    if (this.closed) return;
    const retry = () => {
      if (this.closed) return;
      this.listen().then(() => this.tell({ anything: true }), () => setTimeout(retry, 1_000).unref());
    };
    setTimeout(retry, 100).unref();
  }
}
