import pg from 'pg';
import { isUnanswered } from './failures.js';

/** How long a probe waits for a connection of its own and for the answer to `SELECT 1`. */
const PROBE_WAIT_MS = 2_000;
/** How long after a probe that failed the next one is sent. */
const PROBE_EVERY_MS = 500;

type CheckOut = () => Promise<pg.PoolClient>;
type CheckOutCallback = (error: Error | undefined, client: pg.PoolClient | undefined, done: pg.PoolClient['release']) => void;

/**
 * Fails every request at once while PostgreSQL does not answer, rather than letting each wait out its own limits
 * one read after another (the catching up, then the token, then the limits: a request of a process whose database
 * froze used to take 7-12 s to get its 503, and longer once the pools were full of the frozen).
 *
 * The reserved share of connections is the canary (database.ts): its statements take milliseconds, so one of them
 * not answered in time, or no connection of it had in time, means the database is not answering. The guard then
 * trips: every wait for a connection of either pool, and every new one, fails with an outage (503, errors.ts), and
 * a probe on a connection of its own asks `SELECT 1` until PostgreSQL answers, at once and then every
 * PROBE_EVERY_MS; the first answer lets requests through again. A statement that merely ran long trips it for the
 * one round trip of the probe. Timeouts of the ordinary share trip nothing: a full ordinary share is what calls
 * queued on a team's row look like, and those must not turn the redirects away.
 */
export class StallGuard {
  private stalled = false;
  private closed = false;
  /** The checkouts waiting for a connection, each failed at once when the guard trips. */
  private readonly waiting = new Set<(error: Error) => void>();
  /**
   * The connections checked out of either pool. When the guard trips, each is cut: a statement already sent on
   * one would otherwise wait out its own query timeout (10 s on the ordinary share) for an answer that is not
   * coming, and its request with it; cut, it fails at once as an outage (failures.ts), and a transaction on it is
   * rolled back by PostgreSQL.
   */
  private readonly inUse = new Set<pg.PoolClient>();

  constructor(private readonly url: string) {}

  /** A pool whose checkouts the guard fails while it is tripped; a `canary` pool's timeouts trip it. */
  pool(config: pg.PoolConfig, { canary = false } = {}): pg.Pool {
    const pool = new pg.Pool(config);
    const checkOut: CheckOut = pool.connect.bind(pool);
    // pool.query checks out through pool.connect with a callback; transaction() through its promise.
    const connect = (callback?: CheckOutCallback) => {
      const client = this.checkOut(checkOut, canary);
      if (!callback) return client;
      client.then(
        (had) => callback(undefined, had, had.release),
        (error: Error) => callback(error, undefined, () => {}),
      );
      return undefined;
    };
    Object.assign(pool, { connect });
    // A statement on a canary connection that went unanswered hands its connection back with the timeout.
    if (canary) pool.on('release', (error) => void (error && isUnanswered(error) && this.trip()));
    return pool;
  }

  /** Stops probing; the pools are ended by their owner. */
  close(): void {
    this.closed = true;
    this.stalled = false;
  }

  private async checkOut(checkOut: CheckOut, canary: boolean): Promise<pg.PoolClient> {
    if (this.stalled) throw notAnswering();
    const checkingOut = checkOut();
    let giveUp: (error: Error) => void = () => {};
    const tripped = new Promise<never>((_, reject) => (giveUp = reject));
    this.waiting.add(giveUp);
    try {
      const client = await Promise.race([checkingOut, tripped]);
      this.follow(client);
      return client;
    } catch (error) {
      if (canary && isUnanswered(error)) this.trip();
      // A connection had after the guard gave up on it goes straight back to its pool.
      checkingOut.then((late) => late.release(), () => {});
      throw error;
    } finally {
      this.waiting.delete(giveUp);
    }
  }

  /** Keeps `client` among those in use until it goes back to its pool (or is ended). */
  private follow(client: pg.PoolClient): void {
    this.inUse.add(client);
    const release = client.release;
    client.release = (error?: Error | boolean) => {
      this.inUse.delete(client);
      client.release = release;
      return release.call(client, error);
    };
  }

  private trip(): void {
    if (this.stalled || this.closed) return;
    this.stalled = true;
    for (const giveUp of this.waiting) giveUp(notAnswering());
    // pg's own way to end a connection waits for the server's goodbye, which a stalled server never sends.
    for (const client of this.inUse) (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
    void this.probe();
  }

  private async probe(): Promise<void> {
    while (this.stalled && !this.closed) {
      if (await this.answers()) {
        this.stalled = false;
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, PROBE_EVERY_MS).unref());
    }
  }

  private async answers(): Promise<boolean> {
    const client = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: PROBE_WAIT_MS, query_timeout: PROBE_WAIT_MS });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.query('SELECT 1');
      return true;
    } catch {
      return false;
    } finally {
      void client.end().catch(() => {});
    }
  }
}

/** An outage (errors.ts: a 503 with Retry-After, logged as the database out of reach), not a fault of ours. */
function notAnswering(): Error {
  return Object.assign(new Error('PostgreSQL is not answering; a probe asks again until it does'), { code: 'ETIMEDOUT' });
}
