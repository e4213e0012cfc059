import Database from 'better-sqlite3';
import express from 'express';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SAMPLE_LINK } from '../seed.js';
import { announce } from './child.js';

/** A hand-written Express 5 route: one prepared better-sqlite3 lookup by code in a links table like ours. */
const dir = mkdtempSync(join(tmpdir(), 'shortlinks-bench-express-'));
const db = new Database(join(dir, 'bare.db'));
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.exec(`CREATE TABLE links (
  seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, team_id TEXT NOT NULL, code TEXT NOT NULL UNIQUE,
  name TEXT UNIQUE, destination TEXT NOT NULL, note TEXT, state TEXT NOT NULL, created_at TEXT NOT NULL,
  changed_at TEXT)`);
const s = SAMPLE_LINK;
db.prepare(
  'INSERT INTO links (id, team_id, code, name, destination, note, state, created_at, changed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
).run(s.id, 'team_bench', s.code, s.name, s.destination, s.note, s.state, s.createdAt, s.changedAt);
const byCode = db.prepare(
  `SELECT id, code, name, destination, note, state, created_at AS createdAt, changed_at AS changedAt
   FROM links WHERE code = ?`,
);

const app = express();
app.post('/v1/getLink', express.json(), (req, res) => {
  const link = byCode.get((req.body as { code?: unknown }).code);
  if (!link) return void res.status(404).json({ code: 'not_found' });
  res.json(link);
});

const server = app.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  announce({ type: 'ready', url: `http://127.0.0.1:${port}`, code: s.code }, () => {
    server.closeAllConnections();
    server.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
