import { closeSync, openSync, readSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Db } from './database.js';
import { pragmaValue } from './pragmas.js';

/** The first copy of the WAL-index header: 48 bytes at the start of the -shm file. */
const HEADER_BYTES = 48;

/** This process's descriptors of -shm files: one per database file, closed after the last connection to it. */
const shmFiles = new Map<string, { fd: number; connections: number }>();

/**
 * A cheap first look, for a database in WAL mode, at whether any connection may have committed since the last
 * look: the WAL-index header at the start of the `-shm` file (https://www.sqlite.org/walformat.html) changes with
 * every commit (its change counter, last frame and checksums), and the committing connection writes it before its
 * COMMIT returns. One pread of 48 bytes, without SQLite's locks: asking SQLite (PRAGMA data_version) begins a read
 * transaction, whose locks on the -shm file the workers of WORKERS=N contend for on every request. Null when the
 * database has no -shm file (in memory, or not in WAL mode); then SQLite is asked every time.
 *
 * The descriptor is closed only after the last connection to the file in this process closed: closing any
 * descriptor of a file drops every POSIX lock the process holds on it, SQLite's locks on the -shm file included.
 */
export function walHeaderLook(db: Db): (() => boolean) | null {
  if (db.memory || pragmaValue(db, 'journal_mode') !== 'wal') return null;
  const path = `${resolve(db.name)}-shm`;
  let file = shmFiles.get(path);
  if (!file) {
    try {
      file = { fd: openSync(path, 'r'), connections: 0 };
    } catch {
      return null;
    }
    shmFiles.set(path, file);
  }
  file.connections += 1;
  const shm = file;
  const close = db.close.bind(db);
  let closed = false;
  db.close = () => {
    close();
    if (closed) return db;
    closed = true;
    if (--shm.connections === 0) {
      shmFiles.delete(path);
      closeSync(shm.fd);
    }
    return db;
  };
  const seen = Buffer.alloc(HEADER_BYTES);
  const now = Buffer.alloc(HEADER_BYTES);
  return () => {
    readSync(shm.fd, now, 0, HEADER_BYTES, 0);
    if (now.equals(seen)) return false;
    now.copy(seen);
    return true;
  };
}
