import { domainBase, showsLinks } from '../domain/custom-domain.js';
import type { DomainStore, StoreChanges, TeamDomain } from '../store/ports.js';

/**
 * Every team's domains, kept whole in memory: a request on a host other than PUBLIC_URL's is looked up here, so a
 * stream of requests naming made-up hosts costs a map lookup, never a database read. A domain's change is told
 * with its name as the key (store/ports/domains.ts), and a name always holds a dot, which no link code or name
 * does: such a key, or "anything" (null), drops the copy, and the next request reads them all again. Each request
 * first catches up with the other processes' changes (StoreChanges.catchUp), so an addition, a verification or a
 * removal anywhere takes effect on the very next request everywhere.
 */
export interface DomainDirectory {
  /** The domain a request's host names (as domain/custom-domain.ts hostOf gives it), whatever its state, removed too; or null. */
  byHost(host: string): Promise<TeamDomain | null>;
  /**
   * Where each team's links are shown: `https://<its primary domain>` while that domain is verified, else
   * `publicUrl`. Answered as a function of the team on the copy of the moment, for a page of links at once.
   */
  addresses(): Promise<(teamId: string) => string>;
  /** The teams whose links are shown at their own domain now (most often none, which costs callers nothing more). */
  shownAtDomains(): Promise<ReadonlySet<string>>;
  /** Every domain a team holds (pending, verified or failed: this service answers on each), by name. */
  held(): Promise<ReadonlySet<string>>;
}

/** The domains by name, and each team's primary verified domain's address. */
interface Copy {
  byName: ReadonlyMap<string, TeamDomain>;
  primaries: ReadonlyMap<string, string>;
  shown: ReadonlySet<string>;
  held: ReadonlySet<string>;
}

export function domainDirectory(store: { domains: Pick<DomainStore, 'directory'>; changes: StoreChanges }, publicUrl: string): DomainDirectory {
  let copy: Promise<Copy> | null = null;
  // Counts the changes told, so a read that a change overtook is not kept (as the redirect cache does).
  let told = 0;
  store.changes.subscribe((keys) => {
    if (keys !== null && !keys.some((key) => key.includes('.'))) return;
    told += 1;
    copy = null;
  });

  function read(): Promise<Copy> {
    const toldBefore = told;
    const reading = store.domains.directory().then(copyOf);
    copy = reading;
    // What a change overtook answers the requests that asked for it, and is read again for the next; a failed read
    // is not kept either.
    const drop = () => {
      if (copy === reading) copy = null;
    };
    reading.then(() => {
      if (told !== toldBefore) drop();
    }, drop);
    return reading;
  }

  async function current(): Promise<Copy> {
    await store.changes.catchUp();
    return copy ?? read();
  }

  return {
    async byHost(host) {
      return (await current()).byName.get(host) ?? null;
    },
    async addresses() {
      const { primaries } = await current();
      return (teamId) => primaries.get(teamId) ?? publicUrl;
    },
    async shownAtDomains() {
      return (await current()).shown;
    },
    async held() {
      return (await current()).held;
    },
  };
}

function copyOf(domains: TeamDomain[]): Copy {
  const primaries = new Map<string, string>();
  for (const domain of domains) if (showsLinks(domain)) primaries.set(domain.teamId, domainBase(domain.domain));
  const held = new Set(domains.filter((domain) => domain.state !== 'removed').map((domain) => domain.domain));
  return { byName: new Map(domains.map((domain) => [domain.domain, domain])), primaries, shown: new Set(primaries.keys()), held };
}
