import type { StoreFailure } from '../../errors.js';

/**
 * What an error of the SQLite adapter means to the service (errors.ts StoreFailure), or null: anything else is a
 * fault or a refusal of ours. The database cannot store what it was given when its disk is full (SQLITE_FULL; a
 * file write's ENOSPC) or fails (SQLite's disk I/O errors, SQLITE_IOERR and its extended codes); SQLITE_BUSY is
 * the file's write lock not had within the busy timeout (database.ts), which a long write of ours looks like as
 * much as another process's: a timeout.
 */
export function sqliteFailure(error: unknown): StoreFailure | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return null;
  if (/^SQLITE_(?:FULL|IOERR)/.test(code) || code === 'ENOSPC') return 'storage';
  if (code === 'SQLITE_BUSY') return 'timeout';
  return null;
}
