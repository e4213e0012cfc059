/**
 * The DNS checks of teams' domains (domain/custom-domain.ts says when each is due and what a check's outcome does):
 * every server process looks every DOMAIN_CHECK_MS for domains whose check is due, and a run first takes a lease in
 * the store for one interval, as the other background jobs do, so with several processes sharing the database one
 * of them checks at a time.
 */
import type { Clock } from '../shared/clock.js';
import { every } from '../shared/periodic.js';
import { count } from '../shared/words.js';
import { leaseHolder } from '../store/lease-holder.js';
import type { DomainStore, LeaseStore, TeamDomain } from '../store/ports.js';
import type { LookForProof } from './proof-lookup.js';

const CHECKS_LEASE = 'domain-checks';
/** Domains checked by one run at most: a run ends well within its interval; the rest are due at the next. */
const PER_RUN = 50;

export interface DomainChecks {
  /** Checks the domains due now (or joins the run under way); null while another process holds the lease. */
  runNow(): Promise<number | null>;
  stop(): Promise<void>;
}

/** Checks one domain now (the team page's "check now", the checker's runs): its standing after, or null when it is gone. */
export async function checkDomain(
  deps: { domains: Pick<DomainStore, 'recordCheck'>; lookForProof: LookForProof; clock: Clock },
  domain: Pick<TeamDomain, 'domain' | 'token'>,
): Promise<TeamDomain | null> {
  const outcome = await deps.lookForProof(domain.domain, domain.token);
  return deps.domains.recordCheck(domain.domain, domain.token, outcome, deps.clock.now());
}

export function startDomainChecks(options: {
  store: { domains: Pick<DomainStore, 'due' | 'recordCheck'>; leases: LeaseStore };
  lookForProof: LookForProof;
  clock: Clock;
  intervalMs: number;
  log: (line: string) => void;
}): DomainChecks {
  const { store, clock, intervalMs, log } = options;
  const holdLease = leaseHolder(store.leases, CHECKS_LEASE, clock, intervalMs);
  const deps = { domains: store.domains, lookForProof: options.lookForProof, clock };

  async function run(): Promise<number | null> {
    if (!(await holdLease())) return null;
    const due = await store.domains.due(clock.now(), PER_RUN);
    // One at a time: a few lookups a minute at most, and a slow name server holds up nothing else.
    for (const domain of due) {
      if (job.stopped()) break;
      await checkDomain(deps, domain);
    }
    return due.length;
  }

  const job = every(intervalMs, run, {
    result: (checked) => {
      if (checked) log(`Domain checks: ${count(checked, 'domain')} checked.`);
    },
    failure: (error) => log(`Domain checks failed: ${error instanceof Error ? error.message : String(error)}`),
  });
  return { runNow: job.runNow, stop: job.stop };
}
