import cluster from 'node:cluster';

/** The variable through which the primary tells a worker its slot (workers/primary.ts). */
export const WORKER_SLOT_VARIABLE = 'SHORTLINKS_WORKER_SLOT';

/**
 * This worker's slot of WORKERS=N, "1" to "N": a worker started in place of one that ended takes its slot, so the
 * metrics labelled with it stay N series however often workers are replaced (a process id would add one a
 * replacement). A process forked some other way falls back on its cluster id.
 */
export function workerSlot(): string {
  return process.env[WORKER_SLOT_VARIABLE] ?? String(cluster.worker?.id ?? 1);
}
