import type { Limits } from '../../domain/limits.js';
import type { LinkState } from '../../domain/link-state.js';
import type { ApiError } from '../../errors.js';
import type { AnswerSlot } from './idempotency.js';
import type { Page } from './page.js';

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
  expiresAt: string | null;
  maxClicks: number | null;
  /** The password's slow hash (support/password.ts), or null: it never leaves the service. */
  passwordHash: string | null;
  /** Sorted, each once. */
  tags: string[];
  forwardQuery: boolean;
}

/** A link's options (domain/link-options.ts), as stored: the password as its hash. */
export interface LinkOptions {
  /** When the link ends (UTC, as createdAt), or null for never. */
  expiresAt: string | null;
  maxClicks: number | null;
  passwordHash: string | null;
  tags: string[];
  forwardQuery: boolean;
}

/** An active link's code and destination, with its seq for paging. */
export interface ActiveLink {
  seq: number;
  code: string;
  destination: string;
}

/** A link to make; options left out are as links made before options were (no end, no cap, ... not forwarded). */
export interface NewLink extends Partial<LinkOptions> {
  teamId: string;
  teamCreatedAt: Date;
  destination: string;
  name: string | null;
  note: string | null;
}

export interface LinkFilter {
  state: LinkState | null;
  /** A case-insensitive part of the code, name, destination, note or a tag. */
  q: string | null;
  /** Only links carrying this tag. */
  tag?: string | null;
}

/** One of a team's tags, with the links carrying it. */
export interface TagCount {
  tag: string;
  links: number;
}

/** A createMany item's outcome: the link made, or the refusal createLink would have answered for it. */
export type CreateOutcome = LinkRecord | ApiError;

/**
 * A row of an import (imports/run-import.ts) as the store makes it: a new link, whose name, when `nameIfFree`, is a
 * peer's slug: kept when free, else left out (the row is made without it) rather than refused.
 */
export type ImportItem = NewLink & { nameIfFree: boolean };

/**
 * An import item's outcome: made (with the refusal its slug met when it was left out); a duplicate of a link of
 * the team with the same destination and name (its code), made by nothing; or the refusal createLink would give.
 */
export type ImportOutcome = { made: LinkRecord; nameLeftOut: ApiError | null } | { duplicateOf: string } | ApiError;

export interface LinkStore {
  /** Checks the team's limits and the name, draws a code, inserts; all or nothing. */
  create(input: NewLink, limits: Limits, now: Date, slot?: AnswerSlot<LinkRecord>): Promise<LinkRecord>;
  /**
   * Makes the links as `create` would, in order, in one transaction: each passes or fails alone (a refusal is its
   * outcome), and each sees the ones made before it (limits count them).
   */
  createMany(inputs: readonly NewLink[], limits: Limits, now: Date, slot?: AnswerSlot<CreateOutcome[]>): Promise<CreateOutcome[]>;
  /**
   * An import's batch, as createMany makes its items, in one transaction, except that an item whose destination and
   * name a link of the team has already is a duplicate, and a slug (`nameIfFree`) that is taken or reserved is left
   * out: decided inside the transaction, so running an import twice, even at once, makes each link once. A dry run
   * answers the same outcomes and rolls everything back.
   */
  importMany(items: readonly ImportItem[], limits: Limits, now: Date, dryRun?: boolean): Promise<ImportOutcome[]>;
  findByCode(code: string): Promise<LinkRecord | null>;
  findByName(name: string): Promise<LinkRecord | null>;
  /** The links of these ids that exist, in one read (a breakdown names its top links); in no particular order. */
  findByIds(ids: readonly string[]): Promise<LinkRecord[]>;
  /**
   * Rejects with the refusal create or rename would give the name (name_taken, reserved_name, on `field`) for
   * link `linkId` of the team (null: a link not made yet); resolves when they would take it. Changes nothing.
   */
  nameRefusal(name: string, teamId: string, linkId: string | null, field: string): Promise<void>;
  /** Newest first, `limit` rows after the row with seq `after`. */
  list(teamId: string, filter: LinkFilter, page: Page<number>): Promise<LinkRecord[]>;
  /** The team's tags, each with its links, by tag. */
  tags(teamId: string): Promise<TagCount[]>;
  setDestination(id: string, destination: string, limits: Limits, now: Date, slot?: AnswerSlot<LinkRecord>): Promise<LinkRecord>;
  setNote(id: string, note: string | null, now: Date, slot?: AnswerSlot<LinkRecord>): Promise<LinkRecord>;
  /**
   * Sets the options given (those left out stay as they are); a change of any counts under the changes-per-hour
   * limit, and a flagged or disabled link takes none.
   */
  setOptions(id: string, options: Partial<LinkOptions>, limits: Limits, now: Date, slot?: AnswerSlot<LinkRecord>): Promise<LinkRecord>;
  rename(id: string, name: string | null, limits: Limits, now: Date, slot?: AnswerSlot<LinkRecord>): Promise<LinkRecord>;
  delete(id: string, limits: Limits, now: Date, slot?: AnswerSlot<void>): Promise<void>;
  /** Operator: flag, disable or restore (restoring resolves open reports and reviews). */
  setState(code: string, state: LinkState, now: Date): Promise<LinkRecord | null>;
  /** Active links with seq greater than `after`, by seq, at most `limit` (the daily unsafe-site re-check). */
  activeDestinations(after: number, limit: number): Promise<ActiveLink[]>;
}
