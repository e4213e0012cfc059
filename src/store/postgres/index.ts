import type { Store } from '../ports.js';
import { readStoreFailuresWith } from '../../errors.js';
import { LinkIds } from '../../domain/ids.js';
import { cryptoRandom, type Random } from '../../domain/random.js';
import { pgAccounts } from './accounts.js';
import { cachedReads } from './cached-reads.js';
import { PgChanges } from './changes.js';
import { pgClicks } from './clicks.js';
import { pgAnalytics } from './analytics.js';
import { openDatabase } from './database.js';
import { postgresFailure } from './failures.js';
import { pgIdempotency } from './idempotency.js';
import { pgInvitations } from './invitations.js';
import { pgDomains } from './domains.js';
import { pgLeases } from './leases.js';
import { pgWebhooks } from './webhooks.js';
import { pgMailOutbox } from './mail-outbox.js';
import { pgEmailChanges } from './email-changes.js';
import { pgLinks } from './links.js';
import { pgMcpSessions } from './mcp-sessions.js';
import { pgModeration } from './moderation.js';
import { pgOAuth } from './oauth.js';
import { pgOperations } from './operations.js';
import { pgPasswordLinks } from './password-links.js';
import { pgSignupInvitations } from './signup-invitations.js';
import { pgOidcIdentities } from './oidc-identities.js';
import { pgPeople } from './people.js';
import { pgRates } from './rates.js';
import { postgresReadiness } from './readiness.js';
import { pgSettings } from './settings.js';
import { pgTeams } from './teams.js';
import { pgTokens } from './tokens.js';
import { pgWebSessions } from './web-sessions.js';

/**
 * The PostgreSQL adapter of the store, for many processes on many machines: two pools of connections (the reserved
 * share for the short reads on every request's path, the ordinary share for the rest: database.ts), migrations
 * applied on open (once, however many processes start together), and one listening connection for StoreChanges.
 */
export async function openPostgresStore(url: string, random: Random = cryptoRandom): Promise<Store> {
  // What PostgreSQL's errors mean is read where an error is classified (errors.ts), not as each call passes; from
  // the first open on, so a process reads only the drivers it opened.
  readStoreFailuresWith(postgresFailure);
  const db = await openDatabase(url);
  let changes: PgChanges;
  try {
    changes = await PgChanges.start(url, db.reserved);
  } catch (error) {
    await db.close();
    throw error;
  }
  const { pool, reserved } = db;
  const perform = pgOperations(pool, changes);
  const settings = pgSettings(pool, changes);
  changes.onSettings(() => settings.forget());
  // What every API call reads is kept in memory behind StoreChanges (cached-reads.ts); writes that change access
  // tell every process within their own transaction.
  const { cached, accessWrite } = cachedReads(changes, pool);
  const people = pgPeople(pool, random, accessWrite);
  // Changes of who belongs (teams' members, accounts deleted) tell every process within their transaction.
  const performAccess = pgOperations(pool, changes, accessWrite);
  const teams = pgTeams(pool, random, accessWrite, performAccess);
  const tokens = pgTokens(pool, random, accessWrite);
  const links = pgLinks(pool, random, new LinkIds(random), perform);
  // The reads every request makes before its own work (a redirect's link, a token's grant, a team and a
  // membership), on the reserved share: calls waiting on a team's rows cannot hold them up.
  const quick = {
    links: pgLinks(reserved, random, new LinkIds(random), perform),
    teams: pgTeams(reserved, random, accessWrite),
    tokens: pgTokens(reserved, random, accessWrite),
    oauth: pgOAuth(reserved, random),
  };
  return {
    people,
    teams: {
      ...teams,
      // Renaming, deleting and making a team all change access (teams.ts), which empties this.
      get: cached('access', 10_000, (id) => id, quick.teams.get),
      isMember: cached('access', 10_000, (teamId, personId) => `${teamId} ${personId}`, quick.teams.isMember),
    },
    tokens: {
      ...tokens,
      grant: cached('access', 10_000, (id) => id, quick.tokens.grant),
    },
    links: { ...links, findByCode: cached('links', 10_000, (code) => code, quick.links.findByCode), findByName: quick.links.findByName },
    domains: pgDomains(pool, perform),
    clicks: pgClicks(pool),
    analytics: pgAnalytics(pool, random),
    moderation: pgModeration(pool, random, perform),
    settings,
    idempotency: pgIdempotency(pool),
    rates: pgRates(pool, reserved),
    webSessions: pgWebSessions(pool),
    passwordLinks: pgPasswordLinks(pool),
    signupInvitations: pgSignupInvitations(pool),
    oidcIdentities: pgOidcIdentities(pool),
    invitations: pgInvitations(pool, accessWrite),
    oauth: { ...pgOAuth(pool, random), token: quick.oauth.token },
    mcpSessions: pgMcpSessions(pool, changes),
    accounts: pgAccounts(pool, performAccess),
    leases: pgLeases(pool),
    mailOutbox: pgMailOutbox(pool),
    webhooks: pgWebhooks(pool),
    emailChanges: pgEmailChanges(pool),
    changes,
    ready: postgresReadiness(reserved),
    async close() {
      await Promise.all([tokens.close(), quick.tokens.close()]);
      await changes.close();
      await db.close();
    },
  };
}
