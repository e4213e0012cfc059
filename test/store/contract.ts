import { describe } from 'vitest';
import { accounts } from './contract/accounts.js';
import { analytics } from './contract/analytics.js';
import { changes } from './contract/changes.js';
import { clicksAndSettings } from './contract/clicks-settings.js';
import { domains } from './contract/domains.js';
import type { OpenStore } from './contract/fixtures.js';
import { idempotency } from './contract/idempotency.js';
import { idempotentWrites } from './contract/idempotent-writes.js';
import { invitations } from './contract/invitations.js';
import { linkChanges } from './contract/link-changes.js';
import { linkLimits } from './contract/link-limits.js';
import { linkImports } from './contract/link-imports.js';
import { webhooks } from './contract/webhooks.js';
import { linkOptions } from './contract/link-options.js';
import { linkSearch } from './contract/link-search.js';
import { links } from './contract/links.js';
import { mail } from './contract/mail.js';
import { moderation } from './contract/moderation.js';
import { oauth } from './contract/oauth.js';
import { oidcIdentities } from './contract/oidc-identities.js';
import { peopleAndTeams } from './contract/people-teams.js';
import { sessions } from './contract/sessions.js';
import { signup } from './contract/signup.js';
import { teamChanges } from './contract/team-changes.js';
import { tokens } from './contract/tokens.js';

export type { OpenedStore, OpenStore } from './contract/fixtures.js';

/**
 * The store contract (src/store/ports.ts): what every adapter must do, seen only through the ports. `open` makes a
 * fresh, empty database for each test; the suite never reads SQL, never assumes the database lives in this process,
 * and relies on an order only where a port's doc promises one.
 */
export function storeContract(name: string, open: OpenStore): void {
  describe(`store contract: ${name}`, () => {
    peopleAndTeams(open);
    teamChanges(open);
    invitations(open);
    tokens(open);
    links(open);
    linkSearch(open);
    linkLimits(open);
    linkImports(open);
    webhooks(open);
    linkChanges(open);
    linkOptions(open);
    domains(open);
    changes(open);
    clicksAndSettings(open);
    analytics(open);
    moderation(open);
    idempotency(open);
    idempotentWrites(open);
    sessions(open);
    signup(open);
    oauth(open);
    mail(open);
    accounts(open);
    oidcIdentities(open);
  });
}
