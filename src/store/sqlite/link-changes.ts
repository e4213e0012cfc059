import type { StoreChanges } from '../ports.js';
import { changeWatcher, type Db } from './database.js';
import { checkPhaseLook } from '../../support/check-phase-look.js';

/** How many link changes the log keeps: a process further behind than that forgets everything instead. */
const KEEP_CHANGES = 10_000;

/**
 * The SQLite adapter's StoreChanges. The stores that change links (links, moderation) tell it the codes and names
 * a change touched, inside the transaction (nothing else runs before it commits, and forgetting early is always
 * safe), so none of them can forget to tell. It tells this process's listeners at once and writes the keys to the
 * `link_changes` log in the same transaction, so other processes sharing the file (the workers of WORKERS=N,
 * other servers, the operator CLI) learn exactly which links changed: when SQLite's data_version says another
 * connection committed, a reader catching up reads the log from where it stopped. Commits that changed no link
 * (click counts, written every second by every process) tell nothing, so they never empty a redirect cache.
 */
export class LinkChanges implements StoreChanges {
  private readonly listeners: Array<(keys: string[] | null) => void> = [];
  private readonly otherWriters: () => boolean;
  private readonly log: (keys: string[]) => void;
  private readonly readSince: (seq: number) => { newest: number; keys: string[] };
  /** The newest change of the log this process has told. */
  private seen: number;

  constructor(
    private readonly db: Db,
    private readonly keep = KEEP_CHANGES,
  ) {
    this.otherWriters = changeWatcher(db);
    const insert = db.prepare('INSERT INTO link_changes (keys) VALUES (?)');
    const prune = db.prepare('DELETE FROM link_changes WHERE seq <= ?');
    this.log = (keys) => {
      const seq = Number(insert.run(JSON.stringify(keys)).lastInsertRowid);
      prune.run(seq - keep);
    };
    // AUTOINCREMENT keeps the newest seq ever given in sqlite_sequence, even when its row was pruned.
    const newest = db.prepare("SELECT coalesce(max(seq), 0) FROM sqlite_sequence WHERE name = 'link_changes'").pluck();
    const since = db.prepare('SELECT keys FROM link_changes WHERE seq > ? ORDER BY seq').pluck();
    // One read transaction: the newest seq and the rows after ours come from the same snapshot.
    this.readSince = db.transaction((seq: number) => {
      const top = newest.get() as number;
      // Rows up to (newest - keep) may be pruned: a reader that far behind cannot know everything that changed.
      const keys = top - seq > keep ? [] : (since.all(seq) as string[]).flatMap((row) => JSON.parse(row) as string[]);
      return { newest: top, keys };
    });
    this.seen = newest.get() as number;
  }

  /** read-cache.ts and settings.ts look at data_version on every read. */
  readonly cachesCheckThemselves = true;

  subscribe(listener: (keys: string[] | null) => void): void {
    this.listeners.push(listener);
  }

  /**
   * One look at the file (a read of the WAL index: a system call) serves every request that asks in a turn
   * (support/check-phase-look.ts). A look per request took a fifth of a redirect's sampled time in the bench (about
   * 1% shared).
   */
  readonly catchUp = checkPhaseLook(() => this.readNews());

  private readNews(): void {
    if (!this.otherWriters()) return;
    const { newest, keys } = this.readSince(this.seen);
    const behind = newest - this.seen;
    this.seen = newest;
    if (behind > this.keep) this.tell(null);
    else if (keys.length > 0) this.tell(keys);
  }

  /** Null names are skipped. Only inside the write transaction of the change, so the log commits with it. */
  changed(...keys: Array<string | null>): void {
    if (!this.db.inTransaction) throw new Error('A link change must be told inside its write transaction.');
    const named = keys.filter((key): key is string => key !== null);
    // Read back when catching up too (as everyone's changes are): forgetting twice is harmless, and the seq is
    // not ours until the transaction commits.
    this.log(named);
    this.tell(named);
  }

  private tell(keys: string[] | null): void {
    for (const listener of this.listeners) listener(keys);
  }
}
