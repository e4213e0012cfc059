import pg from 'pg';
import type { StoreChanges } from '../ports.js';
import { transaction, type Queryable } from './query.js';
import { checkPhaseLook } from '../../support/check-phase-look.js';

const CHANNEL = 'shortlinks_changes';
/** NOTIFY payloads stop at 8,000 bytes; a change touching more keys than fit is told as "anything". */
const MAX_PAYLOAD = 7_000;
/**
 * How long a heartbeat vouches for the process that sent it (see PgChanges): its caches answer for this long after
 * it sent a heartbeat that came back, and a write waits at most this long for a process that does not acknowledge.
 */
export const TRUST_MS = 1_000;
/** How often a process sends its heartbeat: a few within TRUST_MS, so one late heartbeat loses no trust. */
const HEARTBEAT_MS = 250;
/** How long a heartbeat sent may take to come back before the listening connection is taken for gone quiet. */
const ECHO_TIMEOUT_MS = 2_000;
/**
 * Each listening process's row in `leases` (`changes:<process>`), held REGISTERED_MS past its renewal (by the
 * database's clock) and renewed every RENEW_EVERY heartbeats: who a process new to the channel must wait for.
 */
const REGISTERED_MS = 10_000;
const RENEW_EVERY = 8;
const register = `INSERT INTO leases (name, holder, until)
  VALUES ($1, $2, (extract(epoch FROM clock_timestamp()) * 1000)::bigint + ${REGISTERED_MS})
  ON CONFLICT (name) DO UPDATE SET until = excluded.until`;
const registered = `SELECT holder FROM leases
  WHERE name LIKE 'changes:%' AND until > (extract(epoch FROM clock_timestamp()) * 1000)::bigint`;

/** `sent`, or a rejection after ECHO_TIMEOUT_MS: closing must not wait on a database that stopped answering. */
function withinTime(sent: Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('not sent in time')), ECHO_TIMEOUT_MS);
  });
  return Promise.race([sent, late]).finally(() => clearTimeout(timer));
}

/** What a change says: link keys it touched, settings, access, answers or anything; `id` asks for acknowledgements. */
type News = ({ keys: string[] } | { settings: true } | { access: true } | { answers: true } | { anything: true }) & {
  from?: string;
  id?: string;
};

/**
 * What one notification says: a change (News; `from` names the sending process, which told its own listeners
 * already and skips the echo), a process's heartbeat (`at`: when it sent it, by its own clock), an acknowledgement
 * of a change by the process `by`, or a process leaving.
 */
type Message = News | { alive: string; at: number } | { ack: string; by: string } | { gone: string };

/** A change this process sent: whether it came back, the processes it waits on (by when each one's trust ends). */
interface Unheard {
  echoed: boolean;
  waitingOn: Map<string, number>;
  acked: Set<string>;
  wake: () => void;
}

/**
 * What a statement that filled in an MCP question's answer sends (mcp-sessions.ts), within itself, so every process
 * waiting on questions, the one that filled it in included (no `from`), looks for its answers.
 */
export const ANSWER_NEWS = { channel: CHANNEL, payload: JSON.stringify({ answers: true } satisfies Message) } as const;

/**
 * StoreChanges over PostgreSQL's LISTEN/NOTIFY. A transaction that changes links, settings or access sends a
 * notification that PostgreSQL delivers, at commit, to every process listening (this one included), in commit order.
 *
 * Redirects outnumber writes by orders of magnitude, so a writer waits rather than every reader: a request asks no
 * round trip (catchUp only looks at the clock), and a write's caller is answered only once every live process has
 * told its caches of the change (heard). Each process sends a heartbeat every HEARTBEAT_MS; when its own heartbeat
 * comes back through its listener, its caches are trusted until TRUST_MS after it was sent. Every other process
 * acknowledges a change once it has told its caches. The writer, once its own change came back (so every heartbeat
 * committed before the change has arrived too), waits for each process it heard within TRUST_MS, until that one
 * acknowledges or its trust has run out, and at most TRUST_MS in all: a process that heartbeats after the change
 * received the change first, in commit order, so any trust left after the writer's wait was earned after the change
 * was told. A process frozen, blocked or cut from its listener for TRUST_MS stops trusting its caches: each request
 * then tells "anything" (caches dropped, reads go to the database: slower, never wrong) until a heartbeat comes back.
 *
 * A process listening for less than TRUST_MS (just started: the operator CLI, a rolling restart) may have missed
 * the heartbeats of a process still trusting its caches; it also reads who registered in `leases` before it began
 * to trust (every listening process, renewed while it lives) and waits for those until its own first TRUST_MS
 * have passed, or their acknowledgement.
 */
export class PgChanges implements StoreChanges {
  private readonly listeners: Array<(keys: string[] | null) => void> = [];
  private readonly settingsListeners: Array<() => void> = [];
  private readonly accessListeners: Array<() => void> = [];
  private readonly answersListeners = new Set<() => void>();
  private readonly self = `${process.pid}-${Math.random().toString(36).slice(2)}`;
  /** Other processes, by when their latest heartbeat arrived. */
  private readonly peers = new Map<string, number>();
  private readonly unheard = new Map<string, Unheard>();
  private changesSent = 0;
  private beats = 0;
  /** When the listening connection began to listen; and until when this process's row is sure to be in `leases`. */
  private listenedAt = Infinity;
  private registeredUntil = 0;
  /** Until when this process's caches may answer without asking (performance.now()). */
  private trustedUntil = 0;
  /** When the newest heartbeat that came back was sent; and whether one is on its way out. */
  private echoed = 0;
  private beating = false;
  private readonly heartbeat: NodeJS.Timeout;
  private listening: pg.Client | null = null;
  private closed = false;

  private constructor(
    private readonly url: string,
    private readonly pool: Queryable,
  ) {
    this.heartbeat = setInterval(() => this.beat(), HEARTBEAT_MS).unref();
  }

  static async start(url: string, pool: Queryable): Promise<PgChanges> {
    const changes = new PgChanges(url, pool);
    try {
      await changes.listen();
    } catch (error) {
      clearInterval(changes.heartbeat);
      throw error;
    }
    return changes;
  }

  subscribe(listener: (keys: string[] | null) => void): void {
    this.listeners.push(listener);
  }

  /** Calls `listener` when the settings (limits, blocklist) changed, here or in another process. */
  onSettings(listener: () => void): void {
    this.settingsListeners.push(listener);
  }

  /**
   * No round trip: while trusted, every change whose writer was answered has been told already (see the class). A
   * look at the clock, in the check phase for every request of the turn (support/check-phase-look.ts).
   */
  readonly catchUp = checkPhaseLook(() => {
    if (performance.now() >= this.trustedUntil) this.tell({ anything: true });
  });

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
   * lost may have: forgetting is always safe), and the caller is answered once every live process heard it.
   */
  async announced<T>(pool: pg.Pool, kind: 'access' | 'settings', work: (client: Queryable) => Promise<T>): Promise<T> {
    const news = kind === 'access' ? ({ access: true } as const) : ({ settings: true } as const);
    const id = this.news();
    try {
      return await transaction(pool, async (client) => {
        const result = await work(client);
        await this.sendNews(client, id, news);
        return result;
      });
    } finally {
      this.tell(news);
      await this.heard(id);
    }
  }

  /** A new change's id, for notifyLinks and heard: one for every attempt of its transaction. */
  news(): string {
    return `${this.self}:${++this.changesSent}`;
  }

  /** Within a transaction that changed links: tells every process at commit (see told() for this one). */
  async notifyLinks(client: Queryable, id: string, keys: Array<string | null>): Promise<void> {
    const touched = keys.filter((key): key is string => key !== null);
    const fits = JSON.stringify({ keys: touched, from: this.self, id }).length <= MAX_PAYLOAD;
    await this.sendNews(client, id, fits ? { keys: touched } : { anything: true });
  }

  /** After this process's own transaction committed: told at once, without waiting for the notification's echo. */
  told(keys: Array<string | null>): void {
    this.tell({ keys: keys.filter((key): key is string => key !== null) });
  }

  /**
   * Resolves once every live process told its caches of the change `id` sent (or at once when none was sent):
   * called as its transaction ends, also when it failed (a COMMIT whose answer was lost may have gone through).
   * At most TRUST_MS: by then a process that did not acknowledge no longer trusts what it kept from before.
   */
  async heard(id: string): Promise<void> {
    const sent = this.unheard.get(id);
    if (!sent) return;
    const giveUp = performance.now() + TRUST_MS;
    try {
      if (performance.now() < this.listenedAt + TRUST_MS) await this.waitForRegistered(sent);
      for (;;) {
        const now = performance.now();
        const ends = sent.echoed ? [...sent.waitingOn.values()].filter((until) => until > now) : [giveUp];
        if (ends.length === 0 || now >= giveUp) return;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(giveUp, ...ends) - now);
          sent.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    } finally {
      this.unheard.delete(id);
    }
  }

  /**
   * Adds the processes registered in `leases` that this one may not have heard yet, until its own first TRUST_MS
   * have passed: any of them trusting its caches when the change committed sent that trust's heartbeat before this
   * process listened. Not read, they are waited for as long as any could be.
   */
  private async waitForRegistered(sent: Unheard): Promise<void> {
    const until = this.listenedAt + TRUST_MS;
    let holders: string[] | null = null;
    try {
      holders = (await this.pool.query<{ holder: string }>(registered)).rows.map((row) => row.holder);
    } catch {
      holders = null;
    }
    if (holders === null) return void sent.waitingOn.set('', until);
    for (const holder of holders) {
      const waited = holder === this.self || sent.acked.has(holder) || sent.waitingOn.has(holder);
      if (!waited) sent.waitingOn.set(holder, until);
    }
  }

  /** Says this process leaves, so writers stop waiting for it, and stops listening. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.heartbeat);
    const client = this.listening;
    this.listening = null;
    this.trustedUntil = 0;
    if (client) {
      const leaving = async () => {
        await this.pool.query('DELETE FROM leases WHERE name = $1', [`changes:${this.self}`]);
        await this.send(this.pool, { gone: this.self });
      };
      await withinTime(leaving()).catch(() => undefined);
    }
    await client?.end().catch(() => undefined);
  }

  private async send(client: Queryable, message: Message): Promise<void> {
    await client.query('SELECT pg_notify($1, $2)', [CHANNEL, JSON.stringify(message)]);
  }

  /** A change's notification, waited for by heard(id) from now on (a run again after a deadlock sends it again). */
  private async sendNews(client: Queryable, id: string, news: News): Promise<void> {
    if (!this.unheard.has(id)) {
      this.unheard.set(id, { echoed: false, waitingOn: new Map(), acked: new Set(), wake: () => undefined });
    }
    await this.send(client, { ...news, from: this.self, id });
  }

  /**
   * Sent on a pooled connection, one at a time. The listener is given up only when a heartbeat sent does not come
   * back in time; a pool too busy to send it is not the listener's fault (trust then lapses by itself).
   */
  private beat(): void {
    const client = this.listening;
    if (!client || this.beating) return;
    this.beating = true;
    const at = performance.now();
    const renewing = this.beats++ % RENEW_EVERY === 0;
    const beating = async () => {
      if (renewing) {
        await this.pool.query(register, [`changes:${this.self}`, this.self]);
        this.registeredUntil = at + REGISTERED_MS;
      }
      await this.send(this.pool, { alive: this.self, at });
    };
    beating().then(
      () => setTimeout(() => this.echoed < at && this.lost(client), ECHO_TIMEOUT_MS).unref(),
      () => undefined,
    ).finally(() => (this.beating = false));
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
    this.listenedAt = performance.now();
    this.beats = 0;
    this.beat();
  }

  private receive(payload: string): void {
    let message: Message;
    try {
      message = JSON.parse(payload) as Message;
    } catch {
      message = { anything: true };
    }
    if ('alive' in message) return this.alive(message.alive, message.at);
    if ('ack' in message) return this.acknowledged(message.ack, message.by);
    if ('gone' in message) return this.left(message.gone);
    if (message.from === this.self) return this.echo(message.id);
    this.tell(message);
    // Told (synchronously, every cache at once): the writer may answer its caller. Lost, it waits out our trust.
    if (message.id !== undefined) this.send(this.pool, { ack: message.id, by: this.self }).catch(() => undefined);
  }

  /** A heartbeat: another process's says it is live; this one's own, come back, extends the trust. */
  private alive(sender: string, at: number): void {
    if (sender !== this.self) return void this.peers.set(sender, performance.now());
    this.echoed = Math.max(this.echoed, at);
    // Only while registered: a process new to the channel reads who to wait for there.
    this.trustedUntil = Math.min(this.registeredUntil, Math.max(this.trustedUntil, at + TRUST_MS));
  }

  /** This process's change came back: every heartbeat committed before it has arrived, so who to wait on is known. */
  private echo(id: string | undefined): void {
    const sent = id === undefined ? undefined : this.unheard.get(id);
    if (!sent || sent.echoed) return;
    sent.echoed = true;
    const now = performance.now();
    for (const [peer, heardAt] of this.peers) {
      if (heardAt + TRUST_MS <= now) this.peers.delete(peer);
      else if (!sent.acked.has(peer)) {
        // A registered process read before the echo may be waited for longer (waitForRegistered).
        sent.waitingOn.set(peer, Math.max(heardAt + TRUST_MS, sent.waitingOn.get(peer) ?? 0));
      }
    }
    sent.wake();
  }

  /** A process that stopped serves no more: no change waits for it. */
  private left(sender: string): void {
    this.peers.delete(sender);
    for (const sent of this.unheard.values()) if (sent.waitingOn.delete(sender)) sent.wake();
  }

  private acknowledged(id: string, by: string): void {
    const sent = this.unheard.get(id);
    if (!sent) return;
    sent.acked.add(by);
    if (sent.waitingOn.delete(by)) sent.wake();
  }

  private tell(message: News): void {
    if ('settings' in message || 'anything' in message) for (const listener of this.settingsListeners) listener();
    if ('access' in message || 'anything' in message) for (const listener of this.accessListeners) listener();
    if ('answers' in message || 'anything' in message) for (const listener of this.answersListeners) listener();
    if ('settings' in message || 'access' in message || 'answers' in message) return;
    const keys = 'keys' in message ? message.keys : null;
    for (const listener of this.listeners) listener(keys);
  }

  /**
   * The listening connection broke or stopped answering: what was missed is unknown, so everything is told as
   * changed, the caches are trusted no more, and a new connection is made in the background (which tells
   * "anything" again once it listens, for what was kept meanwhile, and is trusted once its heartbeat came back).
   */
  private lost(client: pg.Client): void {
    if (client !== this.listening) return;
    this.listening = null;
    this.trustedUntil = 0;
    this.tell({ anything: true });
    void client.end().catch(() => undefined);
    if (this.closed) return;
    const retry = () => {
      if (this.closed) return;
      this.listen().then(() => this.tell({ anything: true }), () => setTimeout(retry, 1_000).unref());
    };
    setTimeout(retry, 100).unref();
  }
}
