import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { processLog } from '../../observability/logger.js';
import type { Db } from './database.js';
import { setPragma } from './pragmas.js';
import { walFramesToCheckpoint } from './wal-header.js';

/** How often the WAL is looked at: it may grow past CHECKPOINT_PAGES by what the server writes in this time. */
const LOOK_EVERY_MS = 250;
/** SQLite's own threshold (wal_autocheckpoint's default), which the server's connection keeps when the thread stops. */
export const CHECKPOINT_PAGES = 1000;

/**
 * The thread: a connection of its own on the file that copies the WAL back into the database when told (PASSIVE: it
 * waits for no reader or writer). Plain CommonJS, so it runs the same from the sources (tests) and the build; the
 * driver is passed as the path the server resolved. Its settings are made with `exec` and its statements
 * prepared once, as pragmas.ts explains. A checkpoint that fails (a full disk) is tried again at the next look; the
 * server hears of the first failure of a run of them, and of the success that ends it.
 */
const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path);
db.exec('PRAGMA busy_timeout = 0');
db.exec('PRAGMA synchronous = NORMAL');
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const version = db.prepare('PRAGMA user_version').pluck();
const rewriteVersion = db.transaction(() => db.exec('PRAGMA user_version = ' + version.get()));
let failing = false;
parentPort.on('message', (message) => {
  if (message === 'stop') {
    db.close();
    parentPort.close();
    return;
  }
  // One answer a checkpoint, so the server asks for the next only once this one is over.
  parentPort.postMessage(checkpointOnce());
});
function checkpointOnce() {
  try {
    const { log, checkpointed } = checkpoint.get();
    // Every frame copied back: the next write begins the WAL again and syncs its new header, 1 to 40 ms. Made here, by
    // a write of one page (the header's user_version, as it is), not by the server's next commit. (BUSY: the server
    // writes at this moment, and begins the WAL itself.)
    if (log > 0 && checkpointed === log) rewriteVersion.immediate();
    const answer = failing ? { working: true } : {};
    failing = false;
    return answer;
  } catch (error) {
    // Another connection checkpoints or writes at this moment: the next look copies what is left.
    if (error.code === 'SQLITE_BUSY' || error.code === 'SQLITE_LOCKED') return {};
    const answer = failing ? {} : { failing: String(error.code || error.message) };
    failing = true;
    return answer;
  }
}
`;

export interface BackgroundCheckpoints {
  /** Stops the thread and closes its connection; the caller's connection checkpoints again as SQLite does by default. */
  close(): Promise<void>;
}

/**
 * Checkpoints `db`'s WAL on a thread of its own, not in the commits of this one. SQLite checkpoints in the commit that
 * takes the WAL past 1,000 pages, and a checkpoint syncs the database file: 20 to 35 ms on this project's machines, a
 * stall for every request of the process (a click-analytics write over thousands of links met one in every dozen of
 * its transactions). Here the WAL's frames not yet checkpointed are read from the WAL-index every LOOK_EVERY_MS, and
 * past the same 1,000 pages the thread is told to checkpoint; the commits only append. If the thread stops (its
 * connection cannot open, it fails), `db` checkpoints as before, so the WAL never grows without bound.
 */
export function checkpointInBackground(db: Db, path: string, lookEveryMs = LOOK_EVERY_MS): BackgroundCheckpoints {
  const framesToCheckpoint = walFramesToCheckpoint(db);
  // No WAL (an in-memory database): nothing to checkpoint.
  if (!framesToCheckpoint) return { close: async () => undefined };
  setPragma(db, 'wal_autocheckpoint = 0');
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(THREAD, { eval: true, workerData: { driver, path } });
  // A checkpoint thread never keeps the process alive; a process that ends without close() loses nothing by it.
  worker.unref();
  // Asked again only once answered: asked at each look, a slow checkpoint had the next ones queued behind it, each
  // syncing the WAL again for the few frames written meanwhile.
  let asked = false;
  const look = setInterval(() => {
    if (asked || framesToCheckpoint() < CHECKPOINT_PAGES) return;
    asked = true;
    worker.postMessage('checkpoint');
  }, lookEveryMs);
  look.unref();
  let closing = false;
  const restore = () => {
    clearInterval(look);
    if (db.open) setPragma(db, `wal_autocheckpoint = ${CHECKPOINT_PAGES}`);
  };
  worker.on('message', (message: { failing?: string; working?: true }) => {
    asked = false;
    if (message.failing) processLog().warn(`SQLite checkpoints fail (${message.failing}); the WAL grows until they work again`);
    else if (message.working) processLog().info('SQLite checkpoints work again');
  });
  worker.once('error', (error) => {
    processLog().warn({ err: error }, 'SQLite checkpoints went back to the serving thread: the checkpoint thread failed');
    restore();
  });
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  void exited.then(() => {
    if (!closing) restore();
  });
  return {
    async close() {
      closing = true;
      clearInterval(look);
      worker.postMessage('stop');
      await exited;
      restore();
    },
  };
}
