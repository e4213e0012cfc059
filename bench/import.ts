import { spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDnsStandIn } from './dns-stand-in.js';

/**
 * `BENCH_ONLY=import`: `shortlinks import` of a plain CSV of BENCH_IMPORT_ROWS rows (100,000) into one team on a
 * fresh SQLite file, through the built CLI as an operator runs it (`--no-limits`, every row checked as createLink
 * checks it, destinations on 1,000 hosts answered by a DNS stand-in), then the same file again (every row a
 * duplicate). Reports each run's time, rows a second and the process's peak RSS (VmHWM, sampled from /proc), which
 * must not grow with the file; then `export` of the same links, timed the same way.
 */
const CLI = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 100_000);

interface Ran {
  ms: number;
  peakRssMb: number;
  stdout: string;
}

/** Runs the CLI, sampling its peak resident memory every 50 ms (Linux's VmHWM, the high-water mark). */
async function cli(env: Record<string, string>, args: string[], keepStdout = true): Promise<Ran> {
  const started = performance.now();
  const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  let stdout = '';
  let bytes = 0;
  child.stdout.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    if (keepStdout) stdout += chunk.toString();
  });
  let peakKb = 0;
  const sample = setInterval(() => {
    try {
      const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      if (hwm) peakKb = Math.max(peakKb, Number(hwm[1]));
    } catch {
      // Gone between two samples: the last one stands.
    }
  }, 50);
  const [code] = (await once(child, 'exit')) as [number];
  clearInterval(sample);
  if (code !== 0) throw new Error(`shortlinks ${args.join(' ')} exited with ${code}`);
  return { ms: performance.now() - started, peakRssMb: peakKb / 1024, stdout: keepStdout ? stdout : String(bytes) };
}

async function writeRows(path: string): Promise<void> {
  const out = createWriteStream(path);
  out.write('destination,name,note,tags\n');
  for (let i = 0; i < ROWS; i++) {
    const line = `https://site${i % 1000}.example.com/page/${i},${i % 10 === 0 ? `imported-${i}` : ''},Row ${i},${i % 3 === 0 ? 'bench imported' : ''}\n`;
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

export async function benchImport(): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'shortlinks-bench-import-'));
  const dns = await startDnsStandIn();
  try {
    const env = { DATABASE_PATH: join(dir, 'bench.db'), DNS_SERVERS: dns.servers.join(','), PUBLIC_URL: 'https://lnk.example.net', LOG_LEVEL: 'silent' };
    await cli(env, ['person', 'add', '--email', 'bench@example.com', '--password', 'correct horse battery', '--agree-terms']);
    const team = JSON.parse((await cli(env, ['team', 'add', '--name', 'Bench', '--owner', 'bench@example.com', '--json'])).stdout) as { id: string };
    const file = join(dir, 'links.csv');
    await writeRows(file);
    const summaryOf = (run: Ran) => JSON.parse(run.stdout.trim().split('\n').at(-1)!).summary as { made: number; duplicates: number; failed: number };
    const first = await cli(env, ['import', '--team', team.id, '--format', 'csv', file, '--no-limits', '--json']);
    const again = await cli(env, ['import', '--team', team.id, '--format', 'csv', file, '--no-limits', '--json']);
    const csv = await cli(env, ['export', '--team', team.id], false);
    const line = (label: string, run: Ran, rows: number, what: string) =>
      `import: ${label}: ${rows.toLocaleString('en')} ${what} in ${(run.ms / 1000).toFixed(1)} s (${Math.round(rows / (run.ms / 1000)).toLocaleString('en')}/s), peak RSS ${run.peakRssMb.toFixed(0)} MB`;
    return [
      line('first run', first, ROWS, `rows (${JSON.stringify(summaryOf(first))})`),
      line('same file again', again, ROWS, `rows (${JSON.stringify(summaryOf(again))})`),
      line('export as CSV', csv, ROWS, `links (${(Number(csv.stdout) / 1e6).toFixed(1)} MB)`),
    ];
  } finally {
    await dns.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
