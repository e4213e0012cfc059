import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/store/sqlite/database.js';
import { checkpointInBackground, CHECKPOINT_PAGES } from '../../src/store/sqlite/checkpoints.js';
import { walFramesToCheckpoint } from '../../src/store/sqlite/wal-header.js';
import { setPragma } from '../../src/store/sqlite/pragmas.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';

/**
 * The WAL checkpointed on a thread of its own (src/store/sqlite/checkpoints.ts): the serving connection's commits
 * never checkpoint, the thread keeps the WAL from growing, and a thread that cannot run hands checkpoints back.
 */
describe('SQLite checkpoints on a thread of their own', () => {
  let dir: string;
  let path: string;
  let db: Db;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'shortlinks-checkpoints-'));
    path = join(dir, 'links.db');
    db = openDatabase(path);
    db.exec('CREATE TABLE filler (bytes BLOB)');
  });
  afterEach(() => {
    if (db.open) db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const autocheckpoint = () => db.prepare('PRAGMA wal_autocheckpoint').pluck().get();
  const walBytes = () => statSync(`${path}-wal`).size;
  /** Ten rounds of about 400 pages each (over 4,000 pages in all), a pause between them. */
  const writeRounds = async (pauseMs: number) => {
    const insert = db.prepare('INSERT INTO filler (bytes) VALUES (?)');
    const round = db.transaction(() => {
      for (let i = 0; i < 400; i++) insert.run(randomBytes(3_000));
    });
    for (let i = 0; i < 10; i++) {
      round();
      await sleep(pauseMs);
    }
  };

  it("leaves the commits without checkpoints and keeps the WAL near SQLite's 1,000 pages", async () => {
    const checkpoints = checkpointInBackground(db, path, 20);
    expect(autocheckpoint()).toBe(0);
    await writeRounds(120);
    // Checkpointed once past 1,000 pages (about 4 MB), so at most about 1,500 frames; without checkpoints (the next
    // test) the ten rounds make over 16 MB.
    expect(walBytes()).toBeLessThan(7 * 1024 * 1024);
    expect(db.prepare('SELECT COUNT(*) FROM filler').pluck().get()).toBe(4_000);
    await checkpoints.close();
    expect(autocheckpoint()).toBe(1000);
  });

  it('is what keeps the WAL small: with neither the thread nor autocheckpoints it grows by every round', async () => {
    setPragma(db, 'wal_autocheckpoint = 0');
    await writeRounds(20);
    expect(walBytes()).toBeGreaterThan(12 * 1024 * 1024);
  });

  it('checkpoints nothing below 1,000 pages, as SQLite would not', async () => {
    const checkpoints = checkpointInBackground(db, path, 20);
    const frames = walFramesToCheckpoint(db)!;
    const insert = db.prepare('INSERT INTO filler (bytes) VALUES (?)');
    db.transaction(() => {
      for (let i = 0; i < 700; i++) insert.run(randomBytes(3_000));
    })();
    const waiting = frames();
    expect(waiting).toBeGreaterThan(700);
    expect(waiting).toBeLessThan(CHECKPOINT_PAGES);
    await sleep(200);
    expect(frames()).toBe(waiting);
    db.transaction(() => {
      for (let i = 0; i < 400; i++) insert.run(randomBytes(3_000));
    })();
    // Checkpointed, and the WAL begun again by the thread's one-page write (the next test).
    for (const deadline = Date.now() + 5_000; frames() !== 1 && Date.now() < deadline; ) await sleep(20);
    expect(frames()).toBe(1);
    await checkpoints.close();
  });

  it("begins the WAL again on the thread, so that the server's next commit only appends", async () => {
    setPragma(db, 'user_version = 7');
    const checkpoints = checkpointInBackground(db, path, 20);
    const frames = walFramesToCheckpoint(db)!;
    const insert = db.prepare('INSERT INTO filler (bytes) VALUES (?)');
    db.transaction(() => {
      for (let i = 0; i < 1_100; i++) insert.run(randomBytes(3_000));
    })();
    // Checkpointed (no frame left to copy), then begun again by the thread's write (one frame).
    for (const deadline = Date.now() + 5_000; frames() !== 1 && Date.now() < deadline; ) await sleep(5);
    // The salts of the WAL's header change each time the WAL begins again (https://www.sqlite.org/walformat.html).
    const salts = () => readFileSync(`${path}-wal`).subarray(16, 24).toString('hex');
    const begun = salts();
    expect(frames()).toBe(1);
    insert.run(randomBytes(100));
    expect(frames()).toBe(2);
    expect(salts()).toBe(begun);
    // The thread's write rewrote the header's user_version (the migrations applied) as it was.
    expect(db.prepare('PRAGMA user_version').pluck().get()).toBe(7);
    await checkpoints.close();
  });

  it('hands checkpoints back to the connection when the thread cannot open the file', async () => {
    const missing = join(dir, 'no-such-folder', 'links.db');
    checkpointInBackground(db, missing, 20);
    for (const deadline = Date.now() + 5_000; autocheckpoint() === 0 && Date.now() < deadline; ) await sleep(20);
    expect(autocheckpoint()).toBe(1000);
    expect(existsSync(missing)).toBe(false);
  });

  it("is the serving store's, and its close stops the thread before the connection", async () => {
    db.close();
    const store = openSqliteStore(path, undefined, { checkpointThread: true });
    await store.settings.cursorSecret();
    await store.close();
    // The last connection closed checkpointed the WAL away: no thread's connection was left open on it.
    expect(existsSync(`${path}-wal`)).toBe(false);
  });
});
