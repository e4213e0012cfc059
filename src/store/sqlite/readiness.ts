import { statSync } from 'node:fs';
import { writeFailures } from '../../observability/write-failures.js';
import { writeTransaction, type Db } from './database.js';
import { migrations } from './migrations.js';
import { pragmaValue, setPragma } from './pragmas.js';

/**
 * The SQLite half of /healthz: resolves while this connection can serve, throws (with the reason, for the log)
 * when it cannot. Two cheap looks, no write while writes work:
 * - `PRAGMA user_version`, a read of the file's header: the connection is open, the file answers, and every
 *   migration this code needs is applied;
 * - the file at `path` is still the one this connection has open (same device and inode). A database moved away or
 *   deleted under a running server is still readable through its open handle, but what it writes there is gone
 *   for every other process (the CLI, another worker, the next start), which would open a new empty file.
 * And one write, only while writes fail (observability/write-failures.ts: a full disk): the header's user_version
 * written again, unchanged, which needs the room of one page. Its error (SQLITE_FULL, say) is the reason; once it
 * is stored, writes work again and the check passes, though no request may come to tell (a balancer sends none
 * to a process whose /healthz answers 503).
 */
export function sqliteReadiness(db: Db, path: string): () => Promise<void> {
  const opened = path === ':memory:' ? null : identityOf(path);
  // Read again under the write lock, so a migration another process applied meanwhile is never undone.
  const rewriteVersion = writeTransaction(db, () => setPragma(db, `user_version = ${pragmaValue(db, 'user_version') as number}`));
  return async () => {
    const applied = pragmaValue(db, 'user_version') as number;
    if (applied < migrations.length) throw new Error(`the database has ${applied} of ${migrations.length} migrations`);
    if (writeFailures.reason() !== null) {
      rewriteVersion();
      writeFailures.stored();
    }
    if (opened === null) return;
    const now = identityOf(path);
    if (now === undefined) throw new Error(`no database file at ${path} any more`);
    if (now !== opened) throw new Error(`the file at ${path} is no longer the database this process has open`);
  };
}

/** `device:inode` of the file, or undefined when there is none. */
function identityOf(path: string): string | undefined {
  const stat = statSync(path, { throwIfNoEntry: false, bigint: true });
  return stat && `${stat.dev}:${stat.ino}`;
}
