import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/errors.js';
import { CLAIM_HELD_MS, MAX_KEPT_ANSWER } from '../../../src/store/idempotency-claims.js';
import type { AnswerSlot, IdempotencyBegin, IdempotencyKey, LinkRecord, NewLink, Team } from '../../../src/store/ports.js';
import { at, failure, ROOMY, storeUnderTest, T0, type OpenStore } from './fixtures.js';

const key: IdempotencyKey = { personId: 'person_idem', operation: 'createLink', key: 'crash-1' };
const claimOf = (begun: IdempotencyBegin) => {
  if (begun.kind !== 'new') throw new Error(`expected a new claim, got ${begun.kind}`);
  return begun.claim;
};
/** A slot whose answer is the JSON of what `output` makes of the write's result. */
const slot = <T>(claim: number, output: (result: T) => unknown, held: IdempotencyKey = key): AnswerSlot<T> => ({
  key: held,
  claim,
  render: (result) => ({ status: 200, body: JSON.stringify(output(result)) }),
});
const codeOf = (link: LinkRecord) => ({ code: link.code });
const inUse = { status: 409, code: 'idempotency_key_in_use', field: null };

/**
 * Writes that complete an idempotent call keep its answer in their own transaction (AnswerSlot), and claims are
 * held only while their process holds them (issue 20): a crash can leave a key unclaimed, claimed without a write,
 * or holding its answer, never a write without its answer.
 */
export function idempotentWrites(open: OpenStore): void {
  describe('idempotent writes', () => {
    const s = storeUnderTest(open);
    const newLink = (team: Team, input: Partial<NewLink> = {}): NewLink => ({
      teamId: team.id, teamCreatedAt: new Date(team.createdAt), destination: 'https://example.com/', name: null, note: null, ...input,
    });

    it('keeps the answer with the write: a retry replays it, for each kind of write', async () => {
      const team = await s.team();
      const claim = claimOf(await s.store.idempotency.begin(key, 'create', T0));
      const made = await s.store.links.create(newLink(team, { name: 'kept' }), ROOMY, T0, slot(claim, codeOf));
      expect(await s.store.idempotency.begin(key, 'create', T0)).toEqual({ kind: 'replay', status: 200, body: JSON.stringify({ code: made.code }) });

      const changes: Array<[string, (claim: number, k: IdempotencyKey) => Promise<unknown>, string]> = [
        ['setDestination', (c, k) => s.store.links.setDestination(made.id, 'https://example.com/b', ROOMY, T0, slot(c, codeOf, k)), `{"code":"${made.code}"}`],
        ['setNote', (c, k) => s.store.links.setNote(made.id, 'A note', T0, slot(c, (link) => link.note, k)), '"A note"'],
        ['renameLink', (c, k) => s.store.links.rename(made.id, 'renamed', ROOMY, T0, slot(c, (link) => link.name, k)), '"renamed"'],
        ['deleteLink', (c, k) => s.store.links.delete(made.id, ROOMY, T0, slot(c, () => null, k)), 'null'],
      ];
      for (const [operation, write, body] of changes) {
        const opKey = { ...key, operation };
        await write(claimOf(await s.store.idempotency.begin(opKey, operation, T0)), opKey);
        expect(await s.store.idempotency.begin(opKey, operation, T0)).toEqual({ kind: 'replay', status: 200, body });
      }
      expect(await s.store.links.findByCode(made.code)).toBeNull();
    });

    it('rolls back a write whose claim was taken over, and the taker keeps its own answer', async () => {
      const team = await s.team();
      const stalled = claimOf(await s.store.idempotency.begin(key, 'body', T0));
      const taken = claimOf(await s.store.idempotency.begin(key, 'body', at(CLAIM_HELD_MS + 1)));
      expect(await failure(s.store.links.create(newLink(team, { name: 'once' }), ROOMY, T0, slot(stalled, codeOf)))).toEqual(inUse);
      expect(await failure(s.store.links.createMany([newLink(team)], ROOMY, T0, slot(stalled, () => 'many')))).toEqual(inUse);
      expect(await s.store.teams.linkCount(team.id)).toBe(0);
      expect(await s.store.links.findByName('once')).toBeNull();

      const made = await s.store.links.create(newLink(team, { name: 'once' }), ROOMY, T0, slot(taken, codeOf));
      expect(await s.store.teams.linkCount(team.id)).toBe(1);
      const link = await s.store.links.findByCode(made.code);
      expect(await failure(s.store.links.setNote(link!.id, 'late', T0, slot(stalled, () => 'late')))).toEqual(inUse);
      expect((await s.store.links.findByCode(made.code))!.note).toBeNull();
      expect(await s.store.idempotency.begin(key, 'body', at(CLAIM_HELD_MS + 2))).toEqual({ kind: 'replay', status: 200, body: JSON.stringify({ code: made.code }) });
    });

    it('holds a claim until its last hold runs out, then lets the next call take it over', async () => {
      const claim = claimOf(await s.store.idempotency.begin(key, 'body', T0));
      expect(await s.store.idempotency.begin(key, 'body', at(CLAIM_HELD_MS - 1))).toEqual({ kind: 'in_use' });
      await s.store.idempotency.hold([{ key, claim }], at(4000 + CLAIM_HELD_MS));
      expect(await s.store.idempotency.begin(key, 'body', at(4000 + CLAIM_HELD_MS - 1))).toEqual({ kind: 'in_use' });
      expect(await s.store.idempotency.begin(key, 'other body', at(4000 + CLAIM_HELD_MS - 1))).toEqual({ kind: 'reused' });
      const taken = claimOf(await s.store.idempotency.begin(key, 'body', at(4000 + CLAIM_HELD_MS)));
      expect(taken).not.toBe(claim);
      // The dead holder's hold comes too late: the claim is not its own any more.
      await s.store.idempotency.hold([{ key, claim }], at(60_000));
      expect(claimOf(await s.store.idempotency.begin(key, 'body', at(4000 + 2 * CLAIM_HELD_MS)))).not.toBe(taken);
    });

    it('holds many claims in one call, and never an answered one', async () => {
      const keys = ['a', 'b', 'c'].map((k) => ({ ...key, key: k }));
      const claims = [];
      for (const k of keys) claims.push({ key: k, claim: claimOf(await s.store.idempotency.begin(k, 'body', T0)) });
      await s.store.idempotency.finish(keys[2]!, claims[2]!.claim, 200, '"done"');
      await s.store.idempotency.hold(claims, at(30_000));
      for (const k of keys.slice(0, 2)) expect(await s.store.idempotency.begin(k, 'body', at(29_999))).toEqual({ kind: 'in_use' });
      expect(await s.store.idempotency.begin(keys[2]!, 'body', at(29_999))).toEqual({ kind: 'replay', status: 200, body: '"done"' });
      await s.store.idempotency.hold([], at(60_000));
    });

    it('makes createMany items in order in one write, each passing or failing alone as create would', async () => {
      const team = await s.team();
      const limits = { ...ROOMY, maxLinksPerTeam: 3 };
      await s.link(team, { name: 'taken' });
      const claim = claimOf(await s.store.idempotency.begin(key, 'many', T0));
      const inputs = [
        newLink(team, { name: 'first' }),
        newLink(team, { name: 'taken' }),
        newLink(team, { name: 'first' }),
        newLink(team, { note: 'second' }),
        newLink(team),
      ];
      const outcomes = await s.store.links.createMany(inputs, limits, T0, slot(claim, (made) => made.map((o) => (o instanceof ApiError ? o.code : o.name))));
      expect(outcomes.map((o) => (o instanceof ApiError ? [o.status, o.code, o.field] : [o.name, o.note]))).toEqual([
        ['first', null], [409, 'name_taken', 'name'], [409, 'name_taken', 'name'], [null, 'second'], [409, 'team_full', null],
      ]);
      expect(await s.store.teams.linkCount(team.id)).toBe(3);
      expect(await s.store.idempotency.begin(key, 'many', T0)).toEqual({
        kind: 'replay', status: 200, body: JSON.stringify(['first', 'name_taken', 'name_taken', null, 'team_full']),
      });
    });

    it('refuses to keep an answer larger than the bound, writing nothing (413)', async () => {
      const team = await s.team();
      const claim = claimOf(await s.store.idempotency.begin(key, 'body', T0));
      const huge = 'x'.repeat(MAX_KEPT_ANSWER);
      expect(await failure(s.store.links.create(newLink(team), ROOMY, T0, slot(claim, () => huge)))).toEqual({
        status: 413, code: 'content_too_large', field: null,
      });
      expect(await s.store.teams.linkCount(team.id)).toBe(0);
      // At the bound exactly (the JSON string's two quotes included), it is kept.
      await s.store.links.create(newLink(team), ROOMY, T0, slot(claim, () => huge.slice(2)));
      expect(await s.store.teams.linkCount(team.id)).toBe(1);
      expect(await s.store.idempotency.begin(key, 'body', T0)).toEqual({ kind: 'replay', status: 200, body: JSON.stringify(huge.slice(2)) });
    });
  });
}
