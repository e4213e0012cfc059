import { generateCode } from '../../domain/code.js';
import type { LinkIds } from '../../domain/ids.js';
import { checkChangeLimit, checkCreationLimits, DAY_MS, HOUR_MS, type Limits } from '../../domain/limits.js';
import { assertChangeable, assertNoteChangeable } from '../../domain/link-state.js';
import type { LinkState } from '../../domain/link-state.js';
import type { Random } from '../../domain/random.js';
import { teamNotFound } from '../../domain/team-roles.js';
import { ApiError, apiError } from '../../errors.js';
import { MAX_KEPT_ANSWER } from '../idempotency-claims.js';
import type { AnswerSlot, CreateOutcome, LinkOptions, LinkRecord, LinkStore, NewLink } from '../ports.js';
import { lockLink, q, readLink, type LinkQueries } from './link-queries.js';
import { claimName, refuseTakenName } from './names.js';
import type { Perform, Steps } from './steps.js';

type Op<T> = Steps<LinkQueries, T>;

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
    const counts = {
      live,
      lastHour: yield* q.events(input.teamId, 'create', now.getTime() - HOUR_MS),
      lastDay: yield* q.events(input.teamId, 'create', now.getTime() - DAY_MS),
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

  function* setDestination(id: string, destination: string, limits: Limits, now: Date): Op<LinkRecord> {
    const link = yield* lockLink(id);
    assertChangeable(link.state, 'destination');
    // The destination it has already changes nothing: not changedAt, not the changes counted (as a rename's).
    if (link.destination === destination) return link;
    yield* countChange(link, now, limits);
    yield* q.setDestination(id, destination, now.toISOString());
    yield* q.changed(link.code, link.name);
    return yield* readLink(id);
  }

  function* setNote(id: string, note: string | null, now: Date): Op<LinkRecord> {
    const link = yield* lockLink(id);
    assertNoteChangeable(link.state);
    if (link.note === note) return link;
    yield* q.setNote(id, note, now.toISOString());
    // Redirects do not show notes, but every cache of the link must let go of the old one.
    yield* q.changed(link.code, link.name);
    return yield* readLink(id);
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
    return yield* readLink(id);
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
    return yield* readLink(id);
  }

  function* remove(id: string, limits: Limits, now: Date): Op<void> {
    const link = yield* lockLink(id);
    yield* countChange(link, now, limits);
    if (link.name !== null) yield* q.retireName(link.name);
    yield* q.deleteLink(id);
    yield* q.changed(link.code, link.name);
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
      return yield* readLink(link.id);
    },
  };
}

/** The LinkStore's changes, each the shared operation run by the adapter's `perform`: the same over any database. */
export function linkChanges(perform: Perform<LinkQueries>, random: Random, ids: LinkIds) {
  const operations = linkOperations(random, ids);
  return {
    create: perform(operations.create),
    createMany: perform(operations.createMany),
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
