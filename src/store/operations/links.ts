import { generateCode } from '../../domain/code.js';
import type { LinkIds } from '../../domain/ids.js';
import { checkChangeLimit, checkCreationLimits, creationWindows, DAY_MS, HOUR_MS, UNCOUNTED, type Limits } from '../../domain/limits.js';
import { assertChangeable, assertNoteChangeable } from '../../domain/link-state.js';
import type { LinkState } from '../../domain/link-state.js';
import type { Random } from '../../domain/random.js';
import { teamNotFound } from '../../domain/team-roles.js';
import { ApiError, apiError } from '../../errors.js';
import { MAX_KEPT_ANSWER } from '../idempotency-claims.js';
import type { AnswerSlot, CreateOutcome, ImportItem, ImportOutcome, LinkOptions, LinkRecord, LinkStore, NewLink } from '../ports.js';
import { lockLink, q, readLink, type LinkQueries } from './link-queries.js';
import { claimName, refuseTakenName } from './names.js';
import { changedOptions, tellWebhooks } from './webhook-events.js';
import type { Perform, Steps } from './steps.js';

type Op<T> = Steps<LinkQueries, T>;

/** What a peer's slug may meet as a name (taken, here or by another team; a word the service keeps): left out. */
const SLUG_REFUSALS: ReadonlySet<string> = new Set(['name_taken', 'reserved_name']);

/** The LinkStore's changes as operations, for any adapter to run in one transaction each (see steps.ts). */
export function linkOperations(random: Random, ids: LinkIds) {

  function* countChange(link: LinkRecord, now: Date, limits: Limits): Op<void> {
    yield* q.lockTeam(link.teamId);
    checkChangeLimit(yield* q.events(link.teamId, 'change', now.getTime() - HOUR_MS), now, limits);
    yield* q.addEvent(link.teamId, 'change', now.getTime());
  }

  function* drawCode(): Op<string> {
    for (;;) {
      const code = generateCode(random);
      if (yield* q.claimCode(code)) return code;
    }
  }

  // Events older than a day are dropped now and then, by whichever operation comes first after a minute.
  let purgedAt = 0;
  function* purgeOldEvents(now: Date): Op<void> {
    if (now.getTime() - purgedAt < 60_000) return;
    purgedAt = now.getTime();
    yield* q.purgeEvents(now.getTime() - DAY_MS);
  }

  function* make(input: NewLink, limits: Limits, now: Date): Op<LinkRecord> {
    yield* q.lockTeam(input.teamId);
    const live = yield* q.liveLinks(input.teamId);
    // Deleted since the caller's membership was checked: 404, as for any team not among theirs.
    if (live === null) throw teamNotFound();
    const windows = creationWindows(limits);
    const counts = {
      live,
      lastHour: windows.hour ? yield* q.events(input.teamId, 'create', now.getTime() - HOUR_MS) : UNCOUNTED,
      lastDay: windows.day ? yield* q.events(input.teamId, 'create', now.getTime() - DAY_MS) : UNCOUNTED,
    };
    checkCreationLimits(counts, input.teamCreatedAt, now, limits);
    // Another process may have made a link a moment later by its clock: ids and times never go back.
    const latest = yield* q.latestCreatedAt();
    if (latest !== null) ids.seed(latest);
    const { id, createdAt } = ids.next(now.getTime());
    if (input.name !== null) yield* claimName(input.name, input.teamId, id, 'name');
    const code = yield* drawCode();
    const { teamId, name, destination, note } = input;
    const options: LinkOptions = {
      expiresAt: input.expiresAt ?? null,
      maxClicks: input.maxClicks ?? null,
      passwordHash: input.passwordHash ?? null,
      tags: input.tags ?? [],
      forwardQuery: input.forwardQuery ?? false,
    };
    yield* q.insertLink({ id, teamId, code, name, destination, note, createdAt: createdAt.toISOString(), ...options });
    const made = yield* readLink(id);
    if (options.tags.length > 0) yield* q.setTags(made, options.tags);
    yield* q.addEvent(teamId, 'create', now.getTime());
    yield* purgeOldEvents(now);
    yield* q.changed(code, name);
    yield* tellWebhooks('link.created', made, now);
    return made;
  }

  /**
   * Makes each link as `create` does, in order: a refusal is the item's outcome, and the next item goes on. Every
   * refusal comes before its item writes anything (the limits, then the name; the code and the row last), so no
   * savepoint is needed to undo half an item.
   */
  function* makeEach(inputs: readonly NewLink[], limits: Limits, now: Date): Op<CreateOutcome[]> {
    const outcomes: CreateOutcome[] = [];
    for (const input of inputs) {
      try {
        outcomes.push(yield* make(input, limits, now));
      } catch (error) {
        // The rules' refusals only; a failed query is thrown by the adapter, outside this generator, and ends it all.
        if (!(error instanceof ApiError)) throw error;
        outcomes.push(error);
      }
    }
    return outcomes;
  }

  /**
   * An import's batch: each item as makeEach makes it, unless the team has a link with its destination and name
   * already (a duplicate, made by nothing, so an import runs again without doubling); a slug taken or reserved is
   * left out, and the item is then a duplicate of a link with its destination and no name, or made without it.
   */
  function* importEach(items: readonly ImportItem[], limits: Limits, now: Date): Op<ImportOutcome[]> {
    const outcomes: ImportOutcome[] = [];
    for (const { nameIfFree, ...input } of items) {
      const outcome = yield* importOne(input, limits, now);
      const slugRefused = nameIfFree && outcome instanceof ApiError && SLUG_REFUSALS.has(outcome.code);
      outcomes.push(slugRefused ? yield* importOne({ ...input, name: null }, limits, now, outcome) : outcome);
    }
    return outcomes;
  }

  function* importOne(input: NewLink, limits: Limits, now: Date, nameLeftOut: ApiError | null = null): Op<ImportOutcome> {
    // Held first, as make holds it: another import of the same file at once waits, then finds this one's links.
    yield* q.lockTeam(input.teamId);
    const duplicateOf = yield* q.sameLink(input.teamId, input.destination, input.name);
    if (duplicateOf !== null) return { duplicateOf };
    const [made] = yield* makeEach([input], limits, now);
    return made instanceof ApiError ? made : { made: made!, nameLeftOut };
  }

  function* setDestination(id: string, destination: string, limits: Limits, now: Date): Op<LinkRecord> {
    const link = yield* lockLink(id);
    assertChangeable(link.state, 'destination');
    // The destination it has already changes nothing: not changedAt, not the changes counted (as a rename's).
    if (link.destination === destination) return link;
    yield* countChange(link, now, limits);
    yield* q.setDestination(id, destination, now.toISOString());
    yield* q.changed(link.code, link.name);
    return yield* toldChanged(id, now, ['destination']);
  }

  function* setNote(id: string, note: string | null, now: Date): Op<LinkRecord> {
    const link = yield* lockLink(id);
    assertNoteChangeable(link.state);
    if (link.note === note) return link;
    yield* q.setNote(id, note, now.toISOString());
    // Redirects do not show notes, but every cache of the link must let go of the old one.
    yield* q.changed(link.code, link.name);
    return yield* toldChanged(id, now, ['note']);
  }

  function* setOptions(id: string, change: Partial<LinkOptions>, limits: Limits, now: Date): Op<LinkRecord> {
    const link = yield* lockLink(id);
    assertChangeable(link.state, 'options');
    const options: LinkOptions = {
      expiresAt: change.expiresAt !== undefined ? change.expiresAt : link.expiresAt,
      maxClicks: change.maxClicks !== undefined ? change.maxClicks : link.maxClicks,
      passwordHash: change.passwordHash !== undefined ? change.passwordHash : link.passwordHash,
      tags: change.tags ?? link.tags,
      forwardQuery: change.forwardQuery ?? link.forwardQuery,
    };
    // Options as they are change nothing: not changedAt, not the changes counted (as a rename's). A password sent
    // again is a new hash, so it counts: it also ends the permissions visitors hold (redirect/link-password.ts).
    const tagsChanged = options.tags.join(' ') !== link.tags.join(' ');
    const same =
      !tagsChanged &&
      options.expiresAt === link.expiresAt &&
      options.maxClicks === link.maxClicks &&
      options.passwordHash === link.passwordHash &&
      options.forwardQuery === link.forwardQuery;
    if (same) return link;
    yield* countChange(link, now, limits);
    yield* q.setOptions(id, options, now.toISOString());
    if (tagsChanged) yield* q.setTags(link, options.tags);
    yield* q.changed(link.code, link.name);
    return yield* toldChanged(id, now, changedOptions(link, options));
  }

  function* rename(id: string, name: string | null, limits: Limits, now: Date): Op<LinkRecord> {
    const link = yield* lockLink(id);
    assertChangeable(link.state, 'name');
    if (link.name === name) return link;
    yield* countChange(link, now, limits);
    if (link.name !== null) yield* q.releaseName(link.name);
    if (name !== null) yield* claimName(name, link.teamId, id, 'name');
    yield* q.setName(id, name, now.toISOString());
    yield* q.changed(link.code, link.name, name);
    return yield* toldChanged(id, now, ['name']);
  }

  function* remove(id: string, limits: Limits, now: Date): Op<void> {
    const link = yield* lockLink(id);
    yield* countChange(link, now, limits);
    if (link.name !== null) yield* q.retireName(link.name);
    yield* q.deleteLink(id);
    yield* q.changed(link.code, link.name);
    yield* tellWebhooks('link.deleted', link, now);
  }

  /** The changed link, once its endpoints are told which of its fields changed. */
  function* toldChanged(id: string, now: Date, changed: string[]): Op<LinkRecord> {
    const link = yield* readLink(id);
    yield* tellWebhooks('link.changed', link, now, { changed });
    return link;
  }

  // Each change takes an optional AnswerSlot: the answer of the idempotent call it completes, kept with it.
  return {
    /** Checks the team's limits and the name, draws a code, inserts; all or nothing. */
    *create(input: NewLink, limits: Limits, now: Date, slot?: AnswerSlot<LinkRecord>): Op<LinkRecord> {
      return yield* answered(make(input, limits, now), slot);
    },

    *createMany(inputs: readonly NewLink[], limits: Limits, now: Date, slot?: AnswerSlot<CreateOutcome[]>): Op<CreateOutcome[]> {
      return yield* answered(makeEach(inputs, limits, now), slot);
    },

    *importMany(items: readonly ImportItem[], limits: Limits, now: Date, dryRun = false): Op<ImportOutcome[]> {
      const outcomes = yield* importEach(items, limits, now);
      // Thrown, so the adapter rolls the transaction back: the outcomes are exactly the real run's, nothing stays.
      if (dryRun) throw new DryRunDone(outcomes);
      return outcomes;
    },

    *nameRefusal(name: string, teamId: string, linkId: string | null, field: string): Op<void> {
      yield* refuseTakenName(name, teamId, linkId, field);
    },

    *setDestination(id: string, destination: string, limits: Limits, now: Date, slot?: AnswerSlot<LinkRecord>): Op<LinkRecord> {
      return yield* answered(setDestination(id, destination, limits, now), slot);
    },

    *setNote(id: string, note: string | null, now: Date, slot?: AnswerSlot<LinkRecord>): Op<LinkRecord> {
      return yield* answered(setNote(id, note, now), slot);
    },

    *setOptions(id: string, options: Partial<LinkOptions>, limits: Limits, now: Date, slot?: AnswerSlot<LinkRecord>): Op<LinkRecord> {
      return yield* answered(setOptions(id, options, limits, now), slot);
    },

    *rename(id: string, name: string | null, limits: Limits, now: Date, slot?: AnswerSlot<LinkRecord>): Op<LinkRecord> {
      return yield* answered(rename(id, name, limits, now), slot);
    },

    *delete(id: string, limits: Limits, now: Date, slot?: AnswerSlot<void>): Op<void> {
      return yield* answered(remove(id, limits, now), slot);
    },

    /** Operator: flag, disable or restore (restoring resolves open reports and reviews). */
    *setState(code: string, state: LinkState, now: Date): Op<LinkRecord | null> {
      const found = yield* q.linkByCode(code);
      const link = found && (yield* q.lockedLink(found.id));
      if (!link) return null;
      if (link.state !== state) yield* q.setState(link.id, state, now.toISOString());
      yield* q.changed(link.code, link.name);
      if (state === 'active') yield* q.resolveOpen(link.id, now.toISOString());
      const after = yield* readLink(link.id);
      if (link.state !== state) yield* tellWebhooks('link.state_changed', after, now, { previousState: link.state });
      return after;
    },
  };
}

/** The LinkStore's changes, each the shared operation run by the adapter's `perform`: the same over any database. */
export function linkChanges(perform: Perform<LinkQueries>, random: Random, ids: LinkIds) {
  const operations = linkOperations(random, ids);
  return {
    create: perform(operations.create),
    createMany: perform(operations.createMany),
    importMany: dryRunnable(perform(operations.importMany)),
    nameRefusal: perform(operations.nameRefusal),
    setDestination: perform(operations.setDestination),
    setNote: perform(operations.setNote),
    setOptions: perform(operations.setOptions),
    rename: perform(operations.rename),
    delete: perform(operations.delete),
    setState: perform(operations.setState),
  } satisfies Partial<LinkStore>;
}

/**
 * Runs the change, then keeps the idempotent call's answer in the same transaction when there is a slot: the
 * change commits with its answer, or not at all. A claim no longer the call's rolls the change back (409
 * `idempotency_key_in_use`: another call with the key runs, or ran); an answer too large to keep, too (413).
 */
function* answered<T>(change: Op<T>, slot: AnswerSlot<T> | undefined): Op<T> {
  const result = yield* change;
  if (slot === undefined) return result;
  const { status, body } = slot.render(result);
  if (body.length > MAX_KEPT_ANSWER) {
    throw apiError.contentTooLarge('The answer is too large to keep for an Idempotency-Key; send fewer links in one call.');
  }
  if (!(yield* q.keepAnswer(slot.key, slot.claim, status, body))) throw apiError.idempotencyKeyInUse();
  return result;
}

/** A dry run's outcomes, carried out of its rolled-back transaction. */
class DryRunDone extends Error {
  constructor(readonly outcomes: ImportOutcome[]) {
    super('dry run');
  }
}

function dryRunnable(run: (items: readonly ImportItem[], limits: Limits, now: Date, dryRun?: boolean) => Promise<ImportOutcome[]>) {
  return async (items: readonly ImportItem[], limits: Limits, now: Date, dryRun?: boolean): Promise<ImportOutcome[]> => {
    try {
      return await run(items, limits, now, dryRun);
    } catch (error) {
      if (error instanceof DryRunDone) return error.outcomes;
      throw error;
    }
  };
}
