import type { Store } from '../ports.js';
import { readStoreFailuresWith } from '../../errors.js';
import { LinkIds } from '../../domain/ids.js';
import { cryptoRandom, type Random } from '../../domain/random.js';
import { openDatabase } from './database.js';
import { checkpointInBackground } from './checkpoints.js';
import { sqliteFailure } from './failures.js';
import { LinkChanges } from './link-changes.js';
import { sqliteOperations } from './link-queries.js';
import { sqliteDomains } from './domains.js';
import { sqliteLeases } from './leases.js';
import { sqliteWebhooks } from './webhooks.js';
import { sqliteMailOutbox } from './mail-outbox.js';
import { sqliteEmailChanges } from './email-changes.js';
import { sqliteAccounts } from './accounts.js';
import { sqliteClicks } from './clicks.js';
import { sqliteAnalytics } from './analytics.js';
import { countedAlone } from './counted-alone.js';
import { sqliteIdempotency } from './idempotency.js';
import { sqliteLinks } from './links.js';
import { sqliteMcpSessions } from './mcp-sessions.js';
import { sqliteModeration } from './moderation.js';
import { sqliteOAuth } from './oauth.js';
import { sqlitePasswordLinks } from './password-links.js';
import { sqliteSignupInvitations } from './signup-invitations.js';
import { sqliteOidcIdentities } from './oidc-identities.js';
import { sqlitePeople } from './people.js';
import { sqliteRates } from './rates.js';
import { sqliteReadiness } from './readiness.js';
import { sqliteSettings } from './settings.js';
import { sqliteTeams } from './teams.js';
import { sqliteInvitations } from './invitations.js';
import { sqliteTokens } from './tokens.js';
import { sqliteWebSessions } from './web-sessions.js';

/**
 * The SQLite adapter of the store: one file (or `:memory:`), WAL, migrations applied on open. `checkpointThread`: the
 * WAL is checkpointed on a thread of its own (checkpoints.ts), for a process that serves requests.
 */
export function openSqliteStore(path: string, random: Random = cryptoRandom, { checkpointThread = false } = {}): Store {
  // What SQLite's errors mean is read where an error is classified (errors.ts), not as each call passes; from
  // the first open on, so a process reads only the drivers it opened.
  readStoreFailuresWith(sqliteFailure);
  const db = openDatabase(path);
  const tokens = sqliteTokens(db, random) as Store['tokens'] & { close(): Promise<void> };
  const changes = new LinkChanges(db);
  const perform = sqliteOperations(db, changes);
  const rates = countedAlone(path, sqliteRates(path));
  const checkpoints = checkpointThread ? checkpointInBackground(db, path) : null;
  return {
    people: sqlitePeople(db, random),
    teams: sqliteTeams(db, random, perform),
    domains: sqliteDomains(db, perform),
    tokens,
    links: sqliteLinks(db, random, new LinkIds(random), perform),
    clicks: sqliteClicks(db),
    analytics: sqliteAnalytics(db, random),
    moderation: sqliteModeration(db, random, perform),
    settings: sqliteSettings(db),
    idempotency: sqliteIdempotency(db),
    rates,
    webSessions: sqliteWebSessions(db),
    passwordLinks: sqlitePasswordLinks(db),
    signupInvitations: sqliteSignupInvitations(db),
    oidcIdentities: sqliteOidcIdentities(db),
    invitations: sqliteInvitations(db),
    oauth: sqliteOAuth(db, random),
    mcpSessions: sqliteMcpSessions(db),
    accounts: sqliteAccounts(db, perform),
    leases: sqliteLeases(db),
    mailOutbox: sqliteMailOutbox(db),
    webhooks: sqliteWebhooks(db),
    emailChanges: sqliteEmailChanges(db),
    changes,
    ready: sqliteReadiness(db, path),
    async close() {
      await tokens.close();
      rates.close();
      await checkpoints?.close();
      db.close();
    },
  };
}
