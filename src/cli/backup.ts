import Database from 'better-sqlite3';
import { existsSync, linkSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { Config } from '../config.js';
import { single, type Args } from './args.js';
import type { StandaloneCommand } from './command.js';
import { dataError, usageError } from './errors.js';
import { count } from '../shared/words.js';

/** What backup made: the copy (an absolute path), its size, and how many links it holds. */
export interface BackupResult {
  file: string;
  bytes: number;
  links: number;
}

/**
 * Pages per step of SQLite's online backup: all of them. One step reads every page within one read transaction,
 * so the copy is one consistent moment of the database; in WAL mode the server's writes go on meanwhile, never
 * blocked, and never make the copy start over (as they would between smaller steps).
 */
const ALL_PAGES = 0x7fffffff;

/**
 * `backup FILE`: a consistent copy of the SQLite database at DATABASE_PATH, taken while the server runs (SQLite's
 * online backup API), checked (`PRAGMA integrity_check`) before it is put in place. It is written beside FILE
 * under another name and linked to FILE only when complete, so FILE is never a half-written copy, and an existing
 * FILE is never overwritten. Restoring is starting the server with DATABASE_PATH naming the copy.
 */
export async function backupDatabase(args: Args, config: Pick<Config, 'databasePath' | 'databaseUrl'>): Promise<BackupResult> {
  // Not echoed: DATABASE_URL may hold a password.
  if (config.databaseUrl !== undefined) {
    throw usageError('backup copies the SQLite database at DATABASE_PATH, and DATABASE_URL is set: back PostgreSQL up with pg_dump (see the README)');
  }
  const file = resolve(single(args, 'FILE'));
  // Opening a missing database would make an empty one, and copying that would look like success.
  if (!existsSync(config.databasePath)) throw dataError(`no SQLite database at ${config.databasePath}`);
  if (existsSync(file)) throw dataError(`${file} exists already; name a new file`);
  if (!existsSync(dirname(file))) throw dataError(`no folder ${dirname(file)}`);

  const partial = join(dirname(file), `.${basename(file)}.partial-${process.pid}`);
  try {
    await copyDatabase(config.databasePath, partial);
    const links = check(partial, config.databasePath);
    // A hard link, then the partial name removed: fails rather than replace a FILE made meanwhile.
    linkSync(partial, file);
    return { file, bytes: statSync(file).size, links };
  } finally {
    rmSync(partial, { force: true });
  }
}

async function copyDatabase(from: string, to: string): Promise<void> {
  // Opened as it is: no migrations, no change of journal mode; only read.
  const source = new Database(from, { fileMustExist: true });
  try {
    source.pragma('busy_timeout = 5000');
    await source.backup(to, { progress: () => ALL_PAGES });
  } finally {
    source.close();
  }
}

/**
 * Checks the copy of `source`; answers how many links it holds. Closing it removes the -wal and -shm files that
 * opening it made, so the copy is one file.
 */
function check(path: string, source: string): number {
  const copy = new Database(path, { fileMustExist: true });
  try {
    const verdict = copy.pragma('integrity_check', { simple: true });
    if (verdict !== 'ok') throw dataError(`the copy failed PRAGMA integrity_check (${String(verdict)}); nothing was written`);
    const tables = copy.prepare("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'links'").pluck().get();
    if (tables === 0) throw dataError(`${source} is not a shortlinks database (it has no links table); nothing was written`);
    return copy.prepare('SELECT count(*) FROM links').pluck().get() as number;
  } finally {
    copy.close();
  }
}

const resultText = ({ file, bytes, links }: BackupResult): string =>
  `backed up to ${file}: ${count(links, 'link')}, ${count(bytes, 'byte')}; the copy passed PRAGMA integrity_check. Restore it by starting the server with DATABASE_PATH=${file}`;

export const backup: StandaloneCommand = {
  async execute(args, config) {
    const result = await backupDatabase(args, config);
    return { json: result, text: resultText(result) };
  },
};
