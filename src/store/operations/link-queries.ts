import type { WindowCount } from '../../domain/limits.js';
import type { LinkState } from '../../domain/link-state.js';
import { linkNotFound } from '../../domain/link-state.js';
import type { IdempotencyKey, LinkOptions, LinkRecord, WebhookEventRecord } from '../ports.js';
import { asker, type Steps } from './steps.js';

/** A row of the one namespace of short link names (see names.ts). */
export interface NameRow {
  teamId: string;
  /** The link holding the name; null once it was renamed away or its link deleted. */
  linkId: string | null;
  retired: boolean;
}

export type LinkEventKind = 'create' | 'change';

/**
 * What the link and moderation operations ask of an adapter, each answered inside the operation's transaction.
 * Written as the answers' types; an adapter that answers over a connection answers each as a promise.
 */
export interface LinkQueries {
  /**
   * Holds the team's links against every other writer until the transaction ends, so that counting them and
   * adding one is atomic across processes (SQLite's write transaction already holds the whole file).
   */
  lockTeam(teamId: string): void;
  /** Holds a name against every other writer until the transaction ends (two teams claiming it at once). */
  lockName(name: string): void;
  linkById(id: string): LinkRecord | null;
  /** The link, held against every other writer until the transaction ends: a change starts from what it locked. */
  lockedLink(id: string): LinkRecord | null;
  linkByCode(code: string): LinkRecord | null;
  /** The creation time of the newest link, epoch ms, or null; link ids never go back in time (domain/ids.ts). */
  latestCreatedAt(): number | null;
  /** The code of a link of the team with this destination and name (null: none), if there is one. */
  sameLink(teamId: string, destination: string, name: string | null): string | null;
  /** The team's live links; null when the team is gone (deleted while the caller was on its way). */
  liveLinks(teamId: string): number | null;
  events(teamId: string, kind: LinkEventKind, since: number): WindowCount;
  addEvent(teamId: string, kind: LinkEventKind, at: number): void;
  /** Drops events older than `before`: no limit looks back further than a day. */
  purgeEvents(before: number): void;
  /** Takes a code for good; false when it was ever issued before. */
  claimCode(code: string): boolean;
  nameRow(name: string): NameRow | null;
  holdName(name: string, teamId: string, linkId: string): void;
  releaseName(name: string): void;
  retireName(name: string): void;
  insertLink(link: { id: string; teamId: string; code: string; name: string | null; destination: string; note: string | null; createdAt: string } & LinkOptions): void;
  /** Sets all the link's options (the link's row; its tags' rows are setTags'). */
  setOptions(id: string, options: LinkOptions, changedAt: string): void;
  /** Replaces the rows of link_tags of the link with one per tag. */
  setTags(link: Pick<LinkRecord, 'id' | 'teamId' | 'seq'>, tags: readonly string[]): void;
  setDestination(id: string, destination: string, changedAt: string): void;
  setNote(id: string, note: string | null, changedAt: string): void;
  setName(id: string, name: string | null, changedAt: string): void;
  setState(id: string, state: LinkState, changedAt: string): void;
  deleteLink(id: string): void;
  /** Marks the link's open reports and review requests resolved. */
  resolveOpen(linkId: string, at: string): void;
  /** Keeps the person's one standing report on the link (its reason replaced when one stands). */
  saveReport(report: { id: string; linkId: string; personId: string; reason: string; createdAt: string }): void;
  /** Different established people with a report standing against the link (see ports.ts, ReportRule). */
  establishedReporters(linkId: string, signedUpBy: string): number;
  /** Flags the link if it is active; false when it was not. */
  flagIfActive(linkId: string): boolean;
  saveReview(review: { id: string; linkId: string; personId: string; reason: string | null; createdAt: string }): void;
  /** Queues a change's event for the team's webhook endpoints that asked for it (operations/webhook-events.ts). */
  tellWebhooks(event: WebhookEventRecord): void;
  /** The codes and names of links the operation changed, told to StoreChanges once the transaction commits. */
  changed(...keys: Array<string | null>): void;
  /**
   * Keeps the answer of an idempotent call under its key (AnswerSlot), locking the key's row; false, changing
   * nothing, when the claim is not the call's any more (taken over, or answered).
   */
  keepAnswer(key: IdempotencyKey, claim: number, status: number, body: string): boolean;
}

/** The queries as steps of an operation. */
export const q = asker<LinkQueries>();

/** The link, or 404 `not_found`. */
export function* readLink(id: string): Steps<LinkQueries, LinkRecord> {
  const link = yield* q.linkById(id);
  if (!link) throw linkNotFound();
  return link;
}

/**
 * The link a change starts from, locked, or 404 `not_found`. A change locks its link first and its team second,
 * everywhere in this order, so two changes never wait for each other's locks.
 */
export function* lockLink(id: string): Steps<LinkQueries, LinkRecord> {
  const link = yield* q.lockedLink(id);
  if (!link) throw linkNotFound();
  return link;
}
