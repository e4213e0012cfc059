import type { Limits } from '../domain/limits.js';
import type { LinkState } from '../domain/link-state.js';
import type { Promotion, Refusal, Removal, TeamActor, TeamRole } from '../domain/team-roles.js';
import type { RateLimiter } from '../support/rate-limiter.js';
import type { ApiError } from '../errors.js';

/**
 * The store's ports. Every method is one atomic operation (one transaction in the adapter), so limits and unique
 * names hold however calls interleave, also across processes sharing the database. Every method is async: no port
 * assumes the database lives in this process.
 */
export interface Store {
  people: PeopleStore;
  teams: TeamStore;
  tokens: TokenStore;
  links: LinkStore;
  clicks: ClickStore;
  moderation: ModerationStore;
  settings: SettingsStore;
  idempotency: IdempotencyStore;
  rates: RateStore;
  webSessions: WebSessionStore;
  passwordLinks: PasswordLinkStore;
  invitations: InvitationStore;
  oauth: OAuthStore;
  mcpSessions: McpSessionStore;
  leases: LeaseStore;
  changes: StoreChanges;
  /**
   * Resolves while the database answers and holds every migration this code needs; rejects, with the reason,
   * otherwise. Cheap (no write, one trivial read): /healthz asks it.
   */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/**
 * What changed in the store, for the caches kept in front of it (the redirect cache). A change this process commits
 * is told at once with the codes and names of the links it touched; a change another process committed (another
 * worker, another machine, the operator CLI) is told as precisely as the adapter can, or as null: anything may
 * have changed.
 */
export interface StoreChanges {
  subscribe(listener: (keys: string[] | null) => void): void;
  /**
   * Resolves once every change other processes committed before the call has been told to the listeners. Asked
   * once per request, as it arrives (app.ts; the redirect resolver for a visit), before anything is answered from a
   * cache: what a request must see is
   * what was committed before it was sent, and a change committed while it runs is concurrent with it. The caches
   * themselves do not ask again, which on PostgreSQL would cost a round trip per read.
   */
  catchUp(): Promise<void>;
  /**
   * True when the adapter's own caches (grants, memberships, links by code, settings) look for other processes'
   * changes on every read themselves (SQLite, by data_version, for the cost of a look at the WAL index): then only
   * the caches kept outside the store (the redirect cache) need catchUp.
   */
  readonly cachesCheckThemselves?: boolean;
}

/**
 * Named leases, so that work meant for one process at a time (the daily unsafe-site re-check) runs on one
 * process however many share the store. A lease is held until its time runs out; the holder renews it by
 * acquiring it again.
 */
export interface LeaseStore {
  /**
   * Takes the lease `name` for `holder` until `until`, or renews it: true when it was free, its time had run out
   * by `now`, or `holder` held it already; false (changing nothing) while another holder has it.
   */
  acquire(name: string, holder: string, until: Date, now: Date): Promise<boolean>;
}

export interface Person {
  id: string;
  email: string;
  agreedTermsAt: string | null;
  createdAt: string;
  /** An operator: sees the web app's moderation pages (`shortlinks person admin`). */
  operator: boolean;
}

export interface Team {
  id: string;
  name: string;
  createdAt: string;
}

export interface TokenRecord {
  id: string;
  personId: string;
  teamId: string;
  /** What the person called it, to tell their tokens apart (domain/account-rules.ts, tokenLabelOf); null: none. */
  label: string | null;
  /** Operation names the token may call; null for every operation. */
  scopes: string[] | null;
  /** Limited to its team's record. */
  limited: boolean;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
}

/** A token with what authentication needs to know about its person, read in one query. */
export interface TokenGrant extends TokenRecord {
  secretHash: Buffer;
  personAgreedTerms: boolean;
  personInTeam: boolean;
}

export interface LinkRecord {
  /** Insertion order; the same order as (createdAt, id). */
  seq: number;
  id: string;
  teamId: string;
  code: string;
  name: string | null;
  destination: string;
  note: string | null;
  state: LinkState;
  createdAt: string;
  changedAt: string | null;
}

/** An active link's code and destination, with its seq for paging. */
export interface ActiveLink {
  seq: number;
  code: string;
  destination: string;
}

/** PeopleStore.add: someone already has the email (also when two sign-ups race for it). */
export class EmailTaken extends Error {
  constructor(email: string) {
    super(`A person with the email ${email} already exists.`);
    this.name = 'EmailTaken';
  }
}

export interface PeopleStore {
  /**
   * `addedByOperator` (the CLI's `person add`) makes the person established at once (see ModerationStore).
   * Rejects with EmailTaken when the email is someone's already.
   */
  add(
    input: { email: string; passwordHash: string | null; agreedTerms: boolean; addedByOperator?: boolean },
    now: Date,
  ): Promise<Person>;
  get(id: string): Promise<Person | null>;
  findByEmail(email: string): Promise<Person | null>;
  /** The person and their password hash, for signing in; null when no one has that email. */
  withPasswordHash(email: string): Promise<{ person: Person; passwordHash: string | null } | null>;
  /** The first step: the person agrees to the terms (once; later calls change nothing). */
  agreeTerms(id: string, now: Date): Promise<void>;
  /** Makes the person an operator or not; false when they already were so (or no one has the id). */
  setOperator(id: string, operator: boolean): Promise<boolean>;
}

export interface Page<K> {
  limit: number;
  after: K | null;
}

export interface TeamStore {
  add(input: { name: string; ownerId: string }, now: Date): Promise<Team>;
  get(id: string): Promise<Team | null>;
  /** The person's teams by name, then id. */
  listForPerson(personId: string, page: Page<[string, string]>): Promise<Team[]>;
  isMember(teamId: string, personId: string): Promise<boolean>;
  /**
   * Adds the person as a member (the operator's `member add`), or says why nothing changed: they already were one,
   * or the team is gone. An invitation of theirs to the team is spent with it.
   */
  addMember(teamId: string, personId: string, now: Date): Promise<'added' | 'already' | 'no_team'>;
  /**
   * Removes `personId` from the team, or says why not, judged on the members as they are within the removal
   * (domain/team-roles.ts): anyone may leave, only an owner or the operator removes others, and the only owner
   * stays. Their tokens for the team answer `token_record_left` from then on.
   */
  removeMember(teamId: string, personId: string, by: TeamActor): Promise<Removal>;
  /** Owners only (and the operator): makes a member an owner too, or says why not ('already' changes nothing). */
  makeOwner(teamId: string, personId: string, by: TeamActor): Promise<Promotion>;
  /** The team's members, owners first, then by email. */
  members(teamId: string): Promise<Member[]>;
  /** How many live links the team holds; null when there is no such team. */
  linkCount(teamId: string): Promise<number | null>;
  /** Owners only (and the operator): the renamed team, or why not. The name is checked by the caller. */
  rename(teamId: string, name: string, by: TeamActor): Promise<Team | Refusal>;
  /**
   * Owners only (and the operator): deletes the team with its links and memberships, or says why not. The links
   * go as deleteLink would take them: every process stops redirecting them at once, and their codes and names are
   * never issued again. Tokens made for the team stay, answering `token_record_left`.
   */
  delete(teamId: string, by: TeamActor): Promise<{ links: number } | Refusal>;
}

/** An invitation to join a team, made by a member for an email; it stands until taken back, declined or accepted. */
export interface Invitation {
  teamId: string;
  teamName: string;
  email: string;
  /** The email of the member who invited; null once their account is gone. */
  invitedBy: string | null;
  createdAt: string;
}

/**
 * Invitations to join a team, by email: the web app puts no one in a team without their yes (the operator CLI
 * still adds directly). An invitation stands for a week (domain/invitations.ts); older ones are neither read nor
 * kept.
 */
export interface InvitationStore {
  /**
   * Invites `email` to the team, or renews its invitation (`invitedBy` and the time). 'member' changes nothing:
   * whoever has that email is in the team already; 'no_team' neither: the team is gone.
   */
  invite(teamId: string, email: string, invitedBy: string, now: Date): Promise<'invited' | 'member' | 'no_team'>;
  /** The team's standing invitations, newest first. */
  ofTeam(teamId: string, now: Date): Promise<Invitation[]>;
  /** The standing invitations for `email`, newest first. */
  forEmail(email: string, now: Date): Promise<Invitation[]>;
  /**
   * The person with `email` accepts the team's invitation, in one transaction: 'joined' (a member now, the
   * invitation gone), or 'not_open' when none stands (taken back, answered, a week old, the team gone).
   */
  accept(teamId: string, personId: string, email: string, now: Date): Promise<'joined' | 'not_open'>;
  /** Takes the invitation away (taken back, declined); false when there was none. */
  remove(teamId: string, email: string): Promise<boolean>;
}

export interface Member {
  personId: string;
  email: string;
  role: TeamRole;
  addedAt: string;
}

export interface TokenStore {
  /** `label` is checked by the caller; absent means none. */
  add(
    input: { personId: string; teamId: string; label?: string | null; scopes: string[] | null; limited: boolean; secretHash: Buffer },
    now: Date,
  ): Promise<TokenRecord>;
  grant(id: string): Promise<TokenGrant | null>;
  /** The person's tokens that are not revoked, newest first. */
  listForPerson(personId: string): Promise<TokenRecord[]>;
  revoke(id: string, now: Date): Promise<boolean>;
  /** Records use; cheap enough for every call (it is batched by the adapter, and never fails the call). */
  touch(id: string, now: Date): Promise<void>;
}

export interface NewLink {
  teamId: string;
  teamCreatedAt: Date;
  destination: string;
  name: string | null;
  note: string | null;
}

export interface LinkFilter {
  state: LinkState | null;
  q: string | null;
}

/**
 * An idempotent call's claim on its key, handed to the write that completes the call (ports' `slot` params): the
 * write keeps the call's answer in its own transaction, so a committed write always has its answer kept for a
 * retry to replay. When the claim is no longer the caller's (taken over, see IdempotencyStore.hold), the write
 * rolls back and rejects with 409 `idempotency_key_in_use`.
 */
export interface AnswerSlot<T> {
  key: IdempotencyKey;
  claim: number;
  /** The call's answer for the write's result, as a retry gets it. */
  render(result: T): { status: number; body: string };
}

/** A createMany item's outcome: the link made, or the refusal createLink would have answered for it. */
export type CreateOutcome = LinkRecord | ApiError;

export interface LinkStore {
  /** Checks the team's limits and the name, draws a code, inserts; all or nothing. */
  create(input: NewLink, limits: Limits, now: Date, slot?: AnswerSlot<LinkRecord>): Promise<LinkRecord>;
  /**
   * Makes the links as `create` would, in order, in one transaction: each passes or fails alone (a refusal is its
   * outcome), and each sees the ones made before it (limits count them).
   */
  createMany(inputs: readonly NewLink[], limits: Limits, now: Date, slot?: AnswerSlot<CreateOutcome[]>): Promise<CreateOutcome[]>;
  findByCode(code: string): Promise<LinkRecord | null>;
  findByName(name: string): Promise<LinkRecord | null>;
  /**
   * Rejects with the refusal create or rename would give the name (name_taken, reserved_name, on `field`) for
   * link `linkId` of the team (null: a link not made yet); resolves when they would take it. Changes nothing.
   */
  nameRefusal(name: string, teamId: string, linkId: string | null, field: string): Promise<void>;
  /** Newest first, `limit` rows after the row with seq `after`. */
  list(teamId: string, filter: LinkFilter, page: Page<number>): Promise<LinkRecord[]>;
  setDestination(id: string, destination: string, limits: Limits, now: Date, slot?: AnswerSlot<LinkRecord>): Promise<LinkRecord>;
  setNote(id: string, note: string | null, now: Date, slot?: AnswerSlot<LinkRecord>): Promise<LinkRecord>;
  rename(id: string, name: string | null, limits: Limits, now: Date, slot?: AnswerSlot<LinkRecord>): Promise<LinkRecord>;
  delete(id: string, limits: Limits, now: Date, slot?: AnswerSlot<void>): Promise<void>;
  /** Operator: flag, disable or restore (restoring resolves open reports and reviews). */
  setState(code: string, state: LinkState, now: Date): Promise<LinkRecord | null>;
  /** Active links with seq greater than `after`, by seq, at most `limit` (the daily unsafe-site re-check). */
  activeDestinations(after: number, limit: number): Promise<ActiveLink[]>;
}

export interface DailyClicks {
  /** UTC calendar date, `YYYY-MM-DD`. */
  day: string;
  clicks: number;
}

export interface ClickStore {
  /** Days with clicks between `from` and `to` inclusive (UTC dates); days without clicks are absent. */
  daily(linkId: string, from: string, to: string): Promise<DailyClicks[]>;
  /**
   * Each link's total between `from` and `to` inclusive, in one read (a list of links shows a total per row);
   * links without clicks there are absent.
   */
  totals(linkIds: readonly string[], from: string, to: string): Promise<Map<string, number>>;
  /** Adds counted clicks: link id → day → count. */
  add(counts: Map<string, Map<string, number>>): Promise<void>;
}

export interface Report {
  id: string;
  linkCode: string;
  personId: string;
  reason: string;
  createdAt: string;
  /** Whether the reporter is established now, so that the report counts towards flagging the link. */
  counts: boolean;
}

/** A request to review a flagged link: like a report, with an optional reason. */
export type ReviewRequest = Omit<Report, 'reason' | 'counts'> & { reason: string | null };

/**
 * Who counts when reports flag a link. Established: added by the operator, or signed up at least
 * `establishedAfterHours` ago, agreed to the terms and a member of a team. Decided when reports are counted, so a
 * reporter who becomes established later counts from then on.
 */
export type ReportRule = Pick<Limits, 'reportsToFlag' | 'establishedAfterHours'>;

export interface ModerationStore {
  /**
   * One standing report per person and link, kept whoever reports; flags an active link once `reportsToFlag`
   * established people have reports standing against it.
   */
  report(linkId: string, personId: string, reason: string, rule: ReportRule, now: Date): Promise<LinkRecord>;
  /** 409 `conflict` unless the link is flagged. */
  askForReview(linkId: string, personId: string, reason: string | null, now: Date): Promise<LinkRecord>;
  /** Open reports, oldest first: all of them, or of the link with id `linkId` only. */
  openReports(rule: ReportRule, now: Date, linkId?: string): Promise<Report[]>;
  /** Open review requests, oldest first: all of them, or of the link with id `linkId` only. */
  openReviews(linkId?: string): Promise<ReviewRequest[]>;
}

/** Operator settings. Read on every call, so adapters keep them in memory and drop them on any change. */
export interface SettingsStore {
  limits(): Promise<Limits>;
  setLimits(changes: Partial<Limits>): Promise<Limits>;
  blockedDomains(): Promise<ReadonlySet<string>>;
  block(domain: string, now: Date): Promise<boolean>;
  unblock(domain: string): Promise<boolean>;
  /** The secret that signs paging cursors and request states, made on first start. */
  cursorSecret(): Promise<Buffer>;
}

/**
 * Rate limits and the sign-in slowdown counted in the database, for a service of several processes: every process
 * on the database shares each allowance, and counts exactly (each operation is one atomic write, so two processes
 * cannot both take the last call). The contract is RateLimiter's; the app uses this one when `sharedRateLimits`.
 */
export type RateStore = RateLimiter;

export interface WebSession {
  personId: string;
  /** The session's secret for CSRF tokens. */
  csrfSecret: string;
  expiresAt: string;
}

/** Signed-in browser sessions. The cookie's value is never stored: only its SHA-256. */
export interface WebSessionStore {
  add(idHash: Buffer, session: WebSession, now: Date): Promise<void>;
  /** The session, unless it expired. */
  find(idHash: Buffer, now: Date): Promise<WebSession | null>;
  remove(idHash: Buffer): Promise<void>;
}

/** What a set-password link's token finds: the person it is for while it works, else why it does not. */
export type PasswordLinkState = { kind: 'valid'; person: Person } | { kind: 'used' | 'expired' | 'unknown' };

/** One-time links where a person sets their password (made by the operator CLI). Only the token's SHA-256 is stored. */
export interface PasswordLinkStore {
  /**
   * A new link for the person, working until `expiresAt`; their earlier links stop working. With `reset`, their
   * password and web sessions end too. Answers how many web sessions ended.
   */
  issue(
    input: { personId: string; tokenHash: Buffer; expiresAt: Date; reset: boolean },
    now: Date,
  ): Promise<{ sessionsEnded: number }>;
  /** What the token finds, changing nothing. */
  find(tokenHash: Buffer, now: Date): Promise<PasswordLinkState>;
  /** While the link works: spends it, sets the password hash and ends the person's web sessions, all at once. */
  use(tokenHash: Buffer, passwordHash: string, now: Date): Promise<PasswordLinkState>;
}

export type IdempotencyBegin =
  | { kind: 'new'; claim: number }
  | { kind: 'replay'; status: number; body: string }
  | { kind: 'in_use' }
  | { kind: 'reused' };

export interface IdempotencyKey {
  personId: string;
  operation: string;
  key: string;
}

/** One claim an idempotent call holds while it runs. */
export interface HeldClaim {
  key: IdempotencyKey;
  claim: number;
}

/**
 * Idempotency keys. A claim is held for a few seconds (CLAIM_HELD_MS) and kept held by its process (`hold`) while
 * its call runs; one not held any longer (its process died) is taken over by the next call with the key. A write
 * keeps its answer in its own transaction (AnswerSlot), so taking a claim over never makes a write twice.
 */
export interface IdempotencyStore {
  /** Claims the key for this body, or says what the first call with it answered. */
  begin(key: IdempotencyKey, bodyHash: string, now: Date): Promise<IdempotencyBegin>;
  /** Keeps these claims held until `until`, those not answered nor taken over; in one statement. */
  hold(claims: readonly HeldClaim[], until: Date): Promise<void>;
  /** Keeps the first answer for 24 hours; does nothing if the claim was taken over meanwhile. */
  finish(key: IdempotencyKey, claim: number, status: number, body: string): Promise<void>;
  /** Lets the key go without keeping an answer (a limit or an outage answered; a retry may do better). */
  release(key: IdempotencyKey, claim: number): Promise<void>;
}

/** An application assistants sign in through: registered (RFC 7591) or known by its metadata document's URL. */
export interface OAuthClient {
  /** `oc_…` for a registered client; the https URL of its metadata document otherwise. */
  id: string;
  kind: 'registered' | 'metadata_document';
  /** SHA-256 of the client secret of a confidential registered client; null for public clients. */
  secretHash: Buffer | null;
  /** The name the client gave itself (unverified), or null. */
  name: string | null;
  redirectUris: string[];
  /** The client's metadata as registered or fetched, as answered by /register. */
  metadata: Record<string, unknown>;
  createdAt: string;
  /** A metadata document's fetched copy serves until then; null for registered clients. */
  freshUntil: string | null;
}

/** What a person allowed one client (a connected assistant), with what the assistants page shows. */
export interface OAuthGrant {
  id: string;
  personId: string;
  clientId: string;
  clientName: string | null;
  redirectUris: string[];
  scopes: string[];
  createdAt: string;
  lastUsedAt: string | null;
}

export interface NewAuthorizationCode {
  codeHash: Buffer;
  personId: string;
  clientId: string;
  scopes: string[];
  redirectUri: string;
  /** The S256 PKCE challenge. */
  codeChallenge: string;
  resource: string;
  expiresAt: string;
}

export interface AuthorizationCodeRecord extends NewAuthorizationCode {
  grantId: string;
  usedAt: string | null;
}

export interface NewOAuthTokens {
  grantId: string;
  /** Tokens descending from one authorization code share a family; a replay revokes the whole family. */
  family: string;
  scopes: string[];
  resource: string;
  accessHash: Buffer;
  accessExpiresAt: string;
  refreshHash: Buffer | null;
  refreshExpiresAt: string | null;
}

export interface OAuthTokenRecord {
  kind: 'access' | 'refresh';
  grantId: string;
  family: string;
  personId: string;
  clientId: string;
  scopes: string[];
  resource: string;
  expiresAt: string;
  /** Refresh tokens: when it was exchanged (rotated); a second exchange is a replay. */
  usedAt: string | null;
  personAgreedTerms: boolean;
}

/** OAuth for assistants. Codes, tokens and client secrets are stored only as SHA-256 hashes. */
export interface OAuthStore {
  addClient(client: Omit<OAuthClient, 'createdAt' | 'kind' | 'freshUntil'>, now: Date): Promise<OAuthClient>;
  /** Keeps a fetched metadata document (replacing an older copy); done when a person approves the client. */
  saveMetadataDocument(client: Omit<OAuthClient, 'createdAt' | 'kind' | 'secretHash'>, now: Date): Promise<OAuthClient>;
  client(id: string): Promise<OAuthClient | null>;
  /**
   * Forgets clients no person has a grant with: registered ones made before `registeredBefore`, and metadata
   * documents past their freshness (stored ones were approved once and disconnected since). Returns how many went.
   */
  purgeClients(registeredBefore: Date, now: Date): Promise<number>;
  /**
   * Records the person's approval (one grant per person and client, its scopes replaced) and the code. When the
   * grant existed, its token families and unused codes holding a scope the new approval does not name are
   * deleted: approving again with narrower scopes narrows what the client holds at once.
   */
  saveCode(code: NewAuthorizationCode, now: Date): Promise<string>;
  code(codeHash: Buffer): Promise<AuthorizationCodeRecord | null>;
  /** Marks the code used; false when it already was (or is gone). */
  useCode(codeHash: Buffer, now: Date): Promise<boolean>;
  saveTokens(tokens: NewOAuthTokens, now: Date): Promise<void>;
  token(tokenHash: Buffer): Promise<OAuthTokenRecord | null>;
  /** Marks a refresh token exchanged; false when it already was (or is gone). */
  useRefreshToken(tokenHash: Buffer, now: Date): Promise<boolean>;
  /** Deletes every token of the family. */
  revokeFamily(family: string): Promise<void>;
  /** The person's connected assistants, most recently allowed first. */
  grants(personId: string): Promise<OAuthGrant[]>;
  /** Deletes the person's grant with its codes and tokens; false when there was none. */
  revokeGrant(personId: string, grantId: string): Promise<boolean>;
  /** Records use (written at most once a minute per grant; never fails the call). */
  touchGrant(grantId: string, now: Date): Promise<void>;
}

/**
 * What MCP 2025-11-25 sessions share across the service's processes; everything else a session holds travels in
 * its id (src/mcp/session-id.ts). Sessions are named by the SHA-256 of their id.
 */
export interface McpSessionStore {
  /** The client ended the session: remembered until `expiresAt`, when its id stops working anyway. */
  end(sessionHash: Buffer, expiresAt: Date, now: Date): Promise<void>;
  ended(sessionHash: Buffer): Promise<boolean>;
  /**
   * Records a question the server put to the session's client (deleteLink's elicitation), open until `expiresAt`
   * unless answered or withdrawn first, so that the process an answer reaches can tell a real answer from anything
   * else. False, recording nothing, when the person has `perPerson` open questions already, in any session.
   */
  ask(question: McpQuestion, perPerson: number, now: Date): Promise<boolean>;
  /**
   * Fills in the answer (a JSON-RPC response, as text) of the session's open question, told at once to every
   * process's `watchAnswers` listeners. False, writing nothing, when the session has no such question open and
   * unanswered: never asked, answered already, withdrawn or expired. The first answer stays.
   */
  answer(sessionHash: Buffer, questionId: string, answer: string, now: Date): Promise<boolean>;
  /** The answered questions among these, each with its answer, once: whoever takes one, no one else gets it. */
  takeAnswers(questionIds: readonly string[]): Promise<McpAnswer[]>;
  /** The question is over, answered or not (the call ended, was cancelled or timed out): it goes. */
  withdraw(sessionHash: Buffer, questionId: string): Promise<void>;
  /**
   * Calls `listener` whenever an answer may have been filled in, by any process; the answer itself is then taken
   * with `takeAnswers`. One watch serves every question a process waits on; the returned function ends it.
   */
  watchAnswers(listener: () => void): () => void;
}

/** A question put to a 2025-11-25 session's client; its id is the JSON-RPC id it went out under. */
export interface McpQuestion {
  sessionHash: Buffer;
  questionId: string;
  /** The person the session belongs to: open questions are counted per person. */
  personId: string;
  expiresAt: Date;
}

export interface McpAnswer {
  sessionHash: Buffer;
  questionId: string;
  answer: string;
}
