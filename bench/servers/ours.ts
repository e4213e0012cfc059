import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { createSampleLink, seedActor, seedLinks } from '../seed.js';
import { announce } from './child.js';

/**
 * Our server on a fresh SQLite file in a temp folder: a person, team and token, limits raised, one link to read;
 * with `SEED_LINKS=n`, n more links in the team first (for listLinks).
 */
const dir = mkdtempSync(join(tmpdir(), 'shortlinks-bench-'));
const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', PUBLIC_URL: 'http://127.0.0.1', DATABASE_PATH: join(dir, 'bench.db') });
const store = openSqliteStore(config.databasePath);
const now = new Date();
const actor = await seedActor(store, now);
const seedCount = Number(process.env.SEED_LINKS ?? 0);
const seedStarted = performance.now();
if (seedCount > 0) seedLinks(config.databasePath, actor, seedCount);
const seedMs = performance.now() - seedStarted;
const link = await createSampleLink(store, actor, new Date());

const app = createApp(config, { store });
const { port } = await app.listen();
announce(
  { type: 'ready', url: `http://127.0.0.1:${port}`, token: actor.token, team: actor.teamId, code: link.code, seedMs },
  async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  },
);
