import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { seedBigSqlite } from '../test/helpers/big-sqlite.js';
import { startPostgres } from '../test/helpers/postgres.js';
import { int } from './measure.js';

/** The compiled CLI, beside this file's compiled self. */
const CLI = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));

/**
 * BENCH_ONLY=copy: `shortlinks copy-database` of an SQLite database of BENCH_COPY_LINKS links (100,000) in one team
 * into an empty database of a throwaway PostgreSQL cluster, the real CLI as its own process, BENCH_COPY_RUNS (2)
 * times. Most of the time is PostgreSQL keeping the links' search index (each link's grams); the test suite checks
 * the copy's batching, this its speed.
 */
export async function benchCopy(): Promise<string[]> {
  const links = Number(process.env.BENCH_COPY_LINKS ?? 100_000);
  const runs = Number(process.env.BENCH_COPY_RUNS ?? 2);
  const dir = mkdtempSync(join(tmpdir(), 'shortlinks-bench-copy-'));
  const cluster = await startPostgres();
  try {
    const path = join(dir, 'big.db');
    seedBigSqlite(path, links);
    console.log(`\ncopy-database of ${int(links)} links (one team, a third named, a fifth with a note, half with clicks) into an empty PostgreSQL database`);
    const times: number[] = [];
    for (let run = 1; run <= runs; run++) {
      const started = performance.now();
      await copy(path, await cluster.newDatabase());
      const ms = performance.now() - started;
      times.push(ms);
      console.log(`  run ${run}: ${(ms / 1000).toFixed(1)} s, ${int(links / (ms / 1000))} links/s`);
    }
    const best = Math.min(...times);
    return [`copy       copy-database ${int(links)} links: best ${(best / 1000).toFixed(1)} s (${int(links / (best / 1000))} links/s) of ${runs}`];
  } finally {
    await cluster.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

function copy(path: string, to: string): Promise<void> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_PATH: path };
  delete env.DATABASE_URL;
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [CLI, 'copy-database', '--to', to, '--json'], { env }, (error, _stdout, stderr) =>
      error ? reject(new Error(`copy-database failed: ${stderr}`)) : resolve(),
    );
  });
}
