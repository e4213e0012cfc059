import type { StoreChanges } from '../ports.js';
import { changeWatcher, type Db } from './database.js';

/**
 * The SQLite adapter's StoreChanges. The stores that change links (links, moderation) tell it the codes and names
 * a change touched, inside the transaction (nothing else runs before it commits, and forgetting early is always
 * safe), so none of them can forget to tell. Changes by other connections to the file (the operator CLI, other
 * workers) show only in SQLite's data_version, which says that something changed but not what: they are told as
 * null when a reader catches up.
 */
export class LinkChanges implements StoreChanges {
  private readonly listeners: Array<(keys: string[] | null) => void> = [];
  private readonly otherWriters: () => boolean;

  constructor(db: Db) {
    this.otherWriters = changeWatcher(db);
  }

  subscribe(listener: (keys: string[] | null) => void): void {
    this.listeners.push(listener);
  }

  async catchUp(): Promise<void> {
    if (this.otherWriters()) this.tell(null);
  }

  /** Null names are skipped. */
  changed(...keys: Array<string | null>): void {
    this.tell(keys.filter((key): key is string => key !== null));
  }

  private tell(keys: string[] | null): void {
    for (const listener of this.listeners) listener(keys);
  }
}
