import { closeSync, openSync, readSync } from 'node:fs';
import { endianness } from 'node:os';
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
  const shm = shmOf(db);
  if (!shm) return null;
  const seen = Buffer.alloc(HEADER_BYTES);
  const now = Buffer.alloc(HEADER_BYTES);
  return () => {
    readSync(shm.fd, now, 0, HEADER_BYTES, 0);
    if (now.equals(seen)) return false;
    now.copy(seen);
    return true;
  };
}

/** Where the WAL-index keeps the last frame committed (`mxFrame`) and the last one checkpointed (`nBackfill`). */
const MX_FRAME_AT = 16;
const N_BACKFILL_AT = 96;

/**
 * How many frames of the WAL are not checkpointed yet, read as walHeaderLook reads (one pread of the -shm file, no
 * lock): what SQLite's autocheckpoint compares with its 1,000 pages. The WAL-index is in the machine's byte order.
 * Null as walHeaderLook.
 */
export function walFramesToCheckpoint(db: Db): (() => number) | null {
  const shm = shmOf(db);
  if (!shm) return null;
  const header = Buffer.alloc(N_BACKFILL_AT + 4);
  const read = endianness() === 'LE' ? header.readUInt32LE.bind(header) : header.readUInt32BE.bind(header);
  return () => {
    readSync(shm.fd, header, 0, header.length, 0);
    return Math.max(0, read(MX_FRAME_AT) - read(N_BACKFILL_AT));
  };
}

/** This process's descriptor of `db`'s -shm file, kept until its last connection here closes; null as above. */
function shmOf(db: Db): { fd: number } | null {
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
  return shm;
}
