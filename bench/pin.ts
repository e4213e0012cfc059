import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';

/**
 * On a machine of few cores, autocannon (in the bench's own process) and the server under load take turns on the
 * same cores, and each one's CPU time per request then swings with how the scheduler mixed them: 30% between two
 * runs of one unchanged server here. Each gets a core of its own instead (the bench's process the first, every
 * server the last), so a server's CPU time is its own work. BENCH_PIN=0 leaves the scheduler free; nothing is
 * pinned on one core, or where `taskset` is missing.
 */
const pinning = process.env.BENCH_PIN !== '0' && availableParallelism() >= 2 && hasTaskset();
const serverCore = String(availableParallelism() - 1);

function hasTaskset(): boolean {
  try {
    execFileSync('taskset', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Pins every thread of `pid` (and the threads it starts later) to `core`. */
function pin(pid: number, core: string): void {
  execFileSync('taskset', ['-a', '-p', '-c', core, String(pid)], { stdio: 'ignore' });
}

/** What the pinning is, for the bench's heading. */
export const pinningText = () => (pinning ? `autocannon on core 0, the server under load on core ${serverCore}` : 'no core pinning');

/**
 * Runs a load with the bench's own process (autocannon) on the first core, and its threads free again after: the
 * seeders and PostgreSQL it starts between loads keep every core.
 */
export async function asLoadGenerator<T>(load: () => Promise<T>): Promise<T> {
  if (!pinning) return load();
  pin(process.pid, '0');
  try {
    return await load();
  } finally {
    pin(process.pid, `0-${serverCore}`);
  }
}

/** A server under test on the last core. */
export function pinServer(pid: number): void {
  if (pinning) pin(pid, serverCore);
}
