/**
 * The daily re-check (issue 5, item 3): a destination that was safe when the link was made may be listed as
 * unsafe later. Every active link's destination is asked about again, in batches, and the links now listed are
 * flagged, which puts the warning page in front of their visitors until the operator reviews them.
 *
 * Every server process schedules it, but a run first takes a lease in the store for one interval (renewed after
 * each batch): so with several processes sharing the database (WORKERS=N) it runs on one process at a time, and
 * once per interval in all, not once per process.
 */
import { checkAddress } from '../../domain/destination.js';
import type { ActiveLink, LeaseStore, LinkStore } from '../../store/ports.js';
import type { Clock } from '../../shared/clock.js';
import { leaseHolder } from '../../store/lease-holder.js';
import { lookupKeyOf, type UnsafeSitesCheck } from './provider.js';
import { warnLine } from '../../observability/logger.js';
import { count } from '../../shared/words.js';
import { every } from '../../shared/periodic.js';

/** The re-check's default interval. */
export const DAY_MS = 24 * 60 * 60 * 1000;

/** The lease's name in the store. */
const RECHECK_LEASE = 'unsafe-recheck';

/** What the re-check needs of the links store. */
export type RecheckLinks = Pick<LinkStore, 'findByCode' | 'setState' | 'activeDestinations'>;

export interface RecheckResult {
  /** Links whose destination every list answered for (or some list matched). */
  checked: number;
  /** Links flagged by this run. */
  flagged: number;
  /** Links left for the next run: a list failed, or the stored destination no longer parses. */
  skipped: number;
}

export interface UnsafeRecheck {
  /**
   * Runs the re-check now (or joins the run under way); null, running nothing, while another process holds the
   * lease (it ran the re-check less than an interval ago, or is running it).
   */
  runNow(): Promise<RecheckResult | null>;
  /** No more runs; resolves when the run under way (if any) has stopped after its current batch. */
  stop(): Promise<void>;
}

export interface RecheckOptions {
  store: { links: RecheckLinks; leases: LeaseStore };
  check: Pick<UnsafeSitesCheck, 'lookupFresh'>;
  clock: Clock;
  /** Time between runs; the first run comes one interval after start, not at boot. Default a day. */
  intervalMs?: number;
  /** Links asked about per look-up; Safe Browsing takes up to 500 addresses a request. */
  batchSize?: number;
  log?: (line: string) => void;
}

/** Schedules the re-check every `intervalMs`; runs never overlap. */
export function startUnsafeRecheck(options: RecheckOptions): UnsafeRecheck {
  const { store, check, clock, intervalMs = DAY_MS, batchSize = 500, log = warnLine } = options;
  const links = store.links;
  const holdLease = leaseHolder(store.leases, RECHECK_LEASE, clock, intervalMs);

  async function flag(link: ActiveLink): Promise<boolean> {
    // Read again: the owner may have changed the destination, or the operator disabled the link, meanwhile.
    const now = await links.findByCode(link.code);
    if (!now || now.state !== 'active' || now.destination !== link.destination) return false;
    await links.setState(link.code, 'flagged', clock.now());
    log(`Link ${link.code} flagged: its destination is now on a list of unsafe sites.`);
    return true;
  }

  async function run(): Promise<RecheckResult> {
    const result: RecheckResult = { checked: 0, flagged: 0, skipped: 0 };
    for (let after = 0; !job.stopped(); ) {
      const batch = await links.activeDestinations(after, batchSize);
      if (batch.length === 0) break;
      after = batch[batch.length - 1]!.seq;
      // Links sharing a destination share one look-up.
      const byKey = new Map<string, ActiveLink[]>();
      for (const link of batch) {
        let key: string;
        try {
          // Read as the private destinations mode reads them, the wider of the two: a link made under it (http, an
          // intranet name) is judged by the lists as any other, and what the public mode takes reads the same.
          key = lookupKeyOf(checkAddress(link.destination, 'destination', 'private'));
        } catch {
          result.skipped++;
          continue;
        }
        byKey.set(key, [...(byKey.get(key) ?? []), link]);
      }
      const answer = await check.lookupFresh([...byKey.keys()]).catch(() => ({ unsafe: new Set<string>(), complete: false }));
      for (const [key, group] of byKey) {
        if (!answer.unsafe.has(key) && !answer.complete) {
          result.skipped += group.length;
          continue;
        }
        result.checked += group.length;
        if (!answer.unsafe.has(key)) continue;
        for (const link of group) if (await flag(link)) result.flagged++;
      }
      if (batch.length < batchSize) break;
      // Renewed, so that a run longer than an interval never meets another process's; lost, it stops here.
      if (!(await holdLease())) break;
    }
    return result;
  }

  const job = every(intervalMs, () => holdLease().then((held) => (held ? run() : null)), {
    result: (result) =>
      log(
        result
          ? `Unsafe-site re-check: ${count(result.checked, 'link')} checked, ${result.flagged} flagged, ${result.skipped} left for the next run.`
          : 'Unsafe-site re-check: left to another process, which ran it less than an interval ago.',
      ),
    failure: (error) => log(`Unsafe-site re-check failed: ${error instanceof Error ? error.message : String(error)}`),
  });
  return { runNow: job.runNow, stop: job.stop };
}
