import { randomUUID } from 'node:crypto';
import type { Clock } from '../shared/clock.js';
import type { LeaseStore } from './ports.js';

/**
 * This process's hold on the lease `name` of a job run every `intervalMs` (the daily jobs every server process
 * schedules): each call takes the lease, or renews it, until an interval from now, and answers false while another
 * process holds it. The holder is this process: its pid, for an operator reading the table, and a random part,
 * since a pid is reused.
 */
export function leaseHolder(leases: LeaseStore, name: string, clock: Clock, intervalMs: number): () => Promise<boolean> {
  const holder = `${process.pid}-${randomUUID()}`;
  return () => {
    const now = clock.now();
    return leases.acquire(name, holder, new Date(now.getTime() + intervalMs), now);
  };
}
