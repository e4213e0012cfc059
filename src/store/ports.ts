import type { StoreChanges } from './ports/changes.js';
import type { LeaseStore } from './ports/leases.js';
import type { MailOutbox } from './ports/mail-outbox.js';
import type { WebhookStore } from './ports/webhooks.js';
import type { EmailChangeStore } from './ports/email-changes.js';
import type { PeopleStore } from './ports/people.js';
import type { TeamStore } from './ports/teams.js';
import type { DomainStore } from './ports/domains.js';
import type { InvitationStore } from './ports/invitations.js';
import type { TokenStore } from './ports/tokens.js';
import type { LinkStore } from './ports/links.js';
import type { IdempotencyStore } from './ports/idempotency.js';
import type { ClickStore } from './ports/clicks.js';
import type { AnalyticsStore } from './ports/analytics.js';
import type { ModerationStore } from './ports/moderation.js';
import type { SettingsStore } from './ports/settings.js';
import type { RateStore } from './ports/rates.js';
import type { WebSessionStore } from './ports/web-sessions.js';
import type { PasswordLinkStore } from './ports/password-links.js';
import type { SignupInvitationStore } from './ports/signup-invitations.js';
import type { OAuthStore } from './ports/oauth.js';
import type { McpSessionStore } from './ports/mcp-sessions.js';
import type { OidcIdentityStore } from './ports/oidc-identities.js';
import type { AccountStore } from './ports/accounts.js';

export * from './ports/changes.js';
export * from './ports/leases.js';
export * from './ports/mail-outbox.js';
export * from './ports/webhooks.js';
export * from './ports/email-changes.js';
export * from './ports/page.js';
export * from './ports/people.js';
export * from './ports/teams.js';
export * from './ports/domains.js';
export * from './ports/invitations.js';
export * from './ports/tokens.js';
export * from './ports/links.js';
export * from './ports/idempotency.js';
export * from './ports/clicks.js';
export * from './ports/analytics.js';
export * from './ports/moderation.js';
export * from './ports/settings.js';
export * from './ports/rates.js';
export * from './ports/web-sessions.js';
export * from './ports/password-links.js';
export * from './ports/signup-invitations.js';
export * from './ports/oauth.js';
export * from './ports/mcp-sessions.js';
export * from './ports/oidc-identities.js';
export * from './ports/accounts.js';

/**
 * The store's ports. Every method is one atomic operation (one transaction in the adapter), so limits and unique
 * names hold however calls interleave, also across processes sharing the database. Every method is async: no port
 * assumes the database lives in this process.
 */
export interface Store {
  people: PeopleStore;
  teams: TeamStore;
  domains: DomainStore;
  tokens: TokenStore;
  links: LinkStore;
  clicks: ClickStore;
  analytics: AnalyticsStore;
  moderation: ModerationStore;
  settings: SettingsStore;
  idempotency: IdempotencyStore;
  rates: RateStore;
  webSessions: WebSessionStore;
  passwordLinks: PasswordLinkStore;
  signupInvitations: SignupInvitationStore;
  invitations: InvitationStore;
  oauth: OAuthStore;
  mcpSessions: McpSessionStore;
  oidcIdentities: OidcIdentityStore;
  accounts: AccountStore;
  leases: LeaseStore;
  mailOutbox: MailOutbox;
  webhooks: WebhookStore;
  emailChanges: EmailChangeStore;
  changes: StoreChanges;
  /**
   * Resolves while the database answers and holds every migration this code needs; rejects, with the reason,
   * otherwise. Cheap (no write, one trivial read): /healthz asks it.
   */
  ready(): Promise<void>;
  close(): Promise<void>;
}
