import { apiError } from '../errors.js';
import { matchesDomain, normalizeDomain } from './destination.js';

/**
 * A team's own short domain (issue 25; docs/behaviour.md, "Custom domains"): a host name its links also answer on,
 * once a TXT record proves the team holds it. Names stay one namespace for the whole service: a domain only says
 * where a team's links may be visited, never which link a name means.
 */

/**
 * pending: added, not proven yet; verified: proven, serving; failed: its proof was gone too long, not serving;
 * removed: taken off its team (or its team deleted), kept so that its name never falls back to PUBLIC_URL's pages
 * and links while DNS and a proxy still send it here. Anyone may add a removed domain again.
 */
export type DomainState = 'pending' | 'verified' | 'failed' | 'removed';

/** Domains a team may hold unless the operator says otherwise (`limits set --team-domains N`). */
export const DEFAULT_TEAM_DOMAINS = 5;

/** Where the proof lives: a TXT record at `_shortlinks.<domain>` holding the domain's token. */
export const PROOF_LABEL = '_shortlinks';

/** The address a verified domain's links have: the proxy in front serves it with TLS (README, "Custom domains"). */
export function domainBase(domain: string): string {
  return `https://${domain}`;
}

/** Whether a team's links are shown at this domain: its primary one, while it is verified. */
export function showsLinks(domain: { primary: boolean; state: DomainState }): boolean {
  return domain.primary && domain.state === 'verified';
}

/** The name of a domain's TXT record. */
export function proofName(domain: string): string {
  return `${PROOF_LABEL}.${domain}`;
}

/** The text a domain's TXT record holds: its token with a prefix that says whose it is. */
export function proofText(token: string): string {
  return `shortlinks-verify=${token}`;
}

/**
 * A domain as a person types it, in the one form every comparison uses (lowercase, punycode, no trailing dot); a
 * scheme or a path pasted with it is a mistake said so, not silently dropped. 400 `invalid_domain`.
 */
export function checkDomainName(input: string, field = 'domain'): string {
  const trimmed = input.trim();
  if (/[/:@?#]/.test(trimmed)) throw apiError.invalidDomain(`Give the domain alone, such as go.example.com, not ${JSON.stringify(trimmed)}.`, field);
  const domain = normalizeDomain(trimmed);
  if (domain === null) throw apiError.invalidDomain(`${JSON.stringify(trimmed)} is not a domain name.`, field);
  return domain;
}

/** What a domain may not be: the service's own host (and its subdomains), another shortener's, or a blocked one. */
export interface DomainRefusals {
  ownHost: string;
  shorteners: ReadonlySet<string>;
  blocked: ReadonlySet<string>;
}

/** Throws 400 `domain_refused` when the domain is one the service will not serve a team's links on. */
export function refuseDomain(domain: string, refusals: DomainRefusals, field = 'domain'): void {
  if (domain === refusals.ownHost || domain.endsWith(`.${refusals.ownHost}`)) throw apiError.domainRefused(`${domain} is this service's own address.`, field);
  if (matchesDomain(domain, refusals.shorteners)) throw apiError.domainRefused(`${domain} belongs to another link shortener.`, field);
  if (matchesDomain(domain, refusals.blocked)) throw apiError.domainRefused(`${domain} is blocked on this service.`, field);
}

/**
 * A request's Host in the form domains are kept (lowercase, no port, no trailing dot), or null for none. Not checked
 * further: it is only looked up among the domains, which were checked as they were added.
 */
export function hostOf(header: string | undefined): string | null {
  if (!header) return null;
  // An IPv6 literal ([::1]:3000) is never a domain.
  if (header.startsWith('[')) return null;
  const colon = header.indexOf(':');
  const host = (colon === -1 ? header : header.slice(0, colon)).toLowerCase();
  return host.endsWith('.') ? host.slice(0, -1) : host;
}

/** How a domain's proof came: a TXT record the service checks, or the operator's word (`domain add --verified`). */
export type DomainProof = 'dns' | 'operator';

/** A pending domain is looked up this often, for its first day; then only when someone asks. */
export const PENDING_CHECK_MS = 5 * 60_000;
const PENDING_CHECKED_FOR_MS = 24 * 3_600_000;
/** A verified (or failed) domain is looked up once a day. */
export const DAILY_CHECK_MS = 24 * 3_600_000;
/** Missing on the checks of three days in a row: the first missing, and two days later still missing. */
const MISSING_FOR_MS = 2 * DAILY_CHECK_MS;

/** What a look at a domain's TXT record found: the token, no such record or token, or no answer at all. */
export type ProofOutcome = 'found' | 'missing' | { unanswered: string };

/** A domain's state as its checks keep it. */
export interface DomainStanding {
  state: DomainState;
  proof: DomainProof;
  addedAt: string;
  verifiedAt: string | null;
  /** When the record was first found missing since it was last found; null while it is there. */
  missingSince: string | null;
  checkedAt: string | null;
  /** When the checker looks next; null: only when someone asks (a pending domain after its first day, the operator's). */
  nextCheckAt: string | null;
  /** Why the domain is not serving, or what its last check saw; null when all is well. */
  problem: string | null;
}

/**
 * A domain's standing after a check at `now` found `outcome`. Found: verified. Missing: a pending domain stays
 * pending; a verified one keeps serving until the record has been missing for the checks of three days in a row,
 * then fails (and is verified again as soon as a check finds it). No answer changes no state: a lookup that failed
 * proves nothing either way. Checks asked on demand count as any other, but the days are counted by the clock.
 */
export function afterCheck(domain: string, was: DomainStanding, outcome: ProofOutcome, now: Date): DomainStanding {
  const at = now.toISOString();
  const record = proofName(domain);
  const checked = { ...was, checkedAt: at };
  if (outcome === 'found') {
    const verifiedAt = was.state === 'verified' ? was.verifiedAt : at;
    return { ...checked, state: 'verified', verifiedAt, missingSince: null, nextCheckAt: later(now, DAILY_CHECK_MS), problem: null };
  }
  const pendingNext = now.getTime() - Date.parse(was.addedAt) < PENDING_CHECKED_FOR_MS ? later(now, PENDING_CHECK_MS) : null;
  const nextCheckAt = was.state === 'pending' ? pendingNext : later(now, DAILY_CHECK_MS);
  if (outcome !== 'missing') {
    return { ...checked, nextCheckAt, problem: `The last look for the TXT record ${record} got no answer (${outcome.unanswered}).` };
  }
  if (was.state === 'pending') return { ...checked, nextCheckAt, problem: `No TXT record ${record} holds the token yet.` };
  const missingSince = was.missingSince ?? at;
  const gone = now.getTime() - Date.parse(missingSince) >= MISSING_FOR_MS;
  if (was.state === 'failed' || gone) {
    const problem =
      was.state === 'failed' && was.problem !== null ? was.problem : `The TXT record ${record} was missing on three days in a row; the domain stopped serving links on ${at.slice(0, 10)}.`;
    return { ...checked, state: 'failed', missingSince, nextCheckAt, problem };
  }
  return { ...checked, missingSince, nextCheckAt, problem: `The TXT record ${record} was missing at the last check; after three days in a row the domain stops serving links.` };
}

function later(now: Date, ms: number): string {
  return new Date(now.getTime() + ms).toISOString();
}
