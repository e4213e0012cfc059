import { describe, expect, it } from 'vitest';
import type { ReportRule } from '../../../src/store/ports.js';
import { at, failure, HOUR_MS, MINUTE, sorted, storeUnderTest, T0, type OpenStore } from './fixtures.js';

const rule: ReportRule = { reportsToFlag: 2, establishedAfterHours: 72 };
/** When people who signed up at T0 are established. */
const AGED = at(72 * HOUR_MS);

export function moderation(open: OpenStore): void {
  describe('moderation', () => {
    const s = storeUnderTest(open);

    /** A person who signed up at T0, agreed to the terms and made a team (established from AGED). */
    const signedUp = async (options: { agreed?: boolean; inTeam?: boolean; at?: Date } = {}) => {
      const person = await s.person({ agreedTerms: options.agreed ?? true }, options.at);
      if (options.inTeam ?? true) await s.team(person);
      return person;
    };
    const operatorAdded = () => s.person({ addedByOperator: true, agreedTerms: false, passwordHash: null });
    const stateAfter = async (linkId: string, personId: string, now: Date) =>
      (await s.store.moderation.report(linkId, personId, 'spam', rule, now)).state;

    describe('reports', () => {
      it('keeps one standing report per person and link, its reason replaced', async () => {
        const link = await s.link(await s.team(), { name: 'reported' });
        const person = await signedUp();
        expect(await s.store.moderation.report(link.id, person.id, 'spam', rule, at(MINUTE))).toEqual(link);
        const [first] = await s.store.moderation.openReports(rule, at(MINUTE));
        expect(first).toEqual({
          id: expect.any(String), linkCode: link.code, personId: person.id, reason: 'spam', createdAt: at(MINUTE).toISOString(), counts: false,
        });
        await s.store.moderation.report(link.id, person.id, 'phishing', rule, at(2 * MINUTE));
        expect(await s.store.moderation.openReports(rule, at(2 * MINUTE))).toEqual([{ ...first, reason: 'phishing' }]);
        expect(await failure(s.store.moderation.report('link_unknown', person.id, 'spam', rule, T0))).toEqual({
          status: 404, code: 'not_found', field: 'code',
        });
      });

      it('flags once reportsToFlag different established people report; others and repeats do not count', async () => {
        const link = await s.link(await s.team());
        const vouched = await operatorAdded();
        const later = await signedUp({ at: at(HOUR_MS) });
        expect(await stateAfter(link.id, later.id, at(HOUR_MS))).toBe('active');
        expect(await stateAfter(link.id, vouched.id, at(HOUR_MS))).toBe('active');
        expect(await stateAfter(link.id, vouched.id, at(HOUR_MS + MINUTE))).toBe('active');
        expect(await stateAfter(link.id, (await signedUp({ inTeam: false })).id, AGED)).toBe('active');
        expect(await stateAfter(link.id, (await signedUp({ agreed: false })).id, AGED)).toBe('active');
        const aged = await signedUp();
        expect(await stateAfter(link.id, aged.id, at(72 * HOUR_MS - 1))).toBe('active');
        expect(await stateAfter(link.id, aged.id, AGED)).toBe('flagged');
        expect((await s.store.links.findByCode(link.code))!.state).toBe('flagged');
      });

      it('says which reports count now, as reporters become established', async () => {
        const link = await s.link(await s.team());
        const fresh = await signedUp();
        const vouched = await operatorAdded();
        const loner = await signedUp({ inTeam: false });
        for (const person of [fresh, vouched, loner]) await s.store.moderation.report(link.id, person.id, 'spam', { ...rule, reportsToFlag: 9 }, T0);
        const counting = async (now: Date) =>
          sorted((await s.store.moderation.openReports(rule, now)).map((r) => `${r.personId} ${r.counts}`));
        expect(await counting(T0)).toEqual(sorted([`${fresh.id} false`, `${vouched.id} true`, `${loner.id} false`]));
        expect(await counting(AGED)).toEqual(sorted([`${fresh.id} true`, `${vouched.id} true`, `${loner.id} false`]));
      });

      it('never flags a disabled link, and a restored link starts counting afresh', async () => {
        const link = await s.link(await s.team());
        const [a, b, c] = [await operatorAdded(), await operatorAdded(), await operatorAdded()];
        await s.store.links.setState(link.code, 'disabled', T0);
        await stateAfter(link.id, a.id, T0);
        expect(await stateAfter(link.id, b.id, T0)).toBe('disabled');
        await s.store.links.setState(link.code, 'active', at(MINUTE));
        expect(await s.store.moderation.openReports(rule, at(MINUTE))).toEqual([]);
        expect(await stateAfter(link.id, a.id, at(2 * MINUTE))).toBe('active');
        expect(await stateAfter(link.id, c.id, at(2 * MINUTE))).toBe('flagged');
      });
    });

    describe('reviews', () => {
      it('takes a review request only for a flagged link, else conflict', async () => {
        const link = await s.link(await s.team());
        const member = await s.person();
        expect(await failure(s.store.moderation.askForReview(link.id, member.id, 'fixed', T0))).toEqual({
          status: 409, code: 'conflict', field: 'code',
        });
        expect(await s.store.moderation.openReviews()).toEqual([]);
        expect(await failure(s.store.moderation.askForReview('link_unknown', member.id, null, T0))).toMatchObject({ code: 'not_found' });
        const flagged = await s.store.links.setState(link.code, 'flagged', T0);
        expect(await s.store.moderation.askForReview(link.id, member.id, 'fixed', at(MINUTE))).toEqual(flagged);
        const other = await s.person();
        await s.store.moderation.askForReview(link.id, other.id, null, at(2 * MINUTE));
        expect(sorted(await s.store.moderation.openReviews(), (r) => r.createdAt)).toEqual([
          { id: expect.any(String), linkCode: link.code, personId: member.id, reason: 'fixed', createdAt: at(MINUTE).toISOString() },
          { id: expect.any(String), linkCode: link.code, personId: other.id, reason: null, createdAt: at(2 * MINUTE).toISOString() },
        ]);
      });

      it('restoring a link resolves its open reports and review requests, and no other link\'s', async () => {
        const team = await s.team();
        const [link, other] = [await s.link(team), await s.link(team)];
        const [a, b] = [await operatorAdded(), await operatorAdded()];
        for (const target of [link, other]) {
          for (const person of [a, b]) await s.store.moderation.report(target.id, person.id, 'spam', rule, T0);
          await s.store.moderation.askForReview(target.id, a.id, 'please', at(MINUTE));
        }
        expect((await s.store.links.setState(link.code, 'active', at(2 * MINUTE)))!.state).toBe('active');
        expect((await s.store.moderation.openReports(rule, at(2 * MINUTE))).map((r) => r.linkCode)).toEqual([other.code, other.code]);
        expect((await s.store.moderation.openReviews()).map((r) => r.linkCode)).toEqual([other.code]);
      });

      it("lists one link's open reports and review requests, leaving out every other link's", async () => {
        const team = await s.team();
        const [link, other, quiet] = [await s.link(team), await s.link(team), await s.link(team)];
        const [a, b] = [await operatorAdded(), await operatorAdded()];
        await s.store.moderation.report(link.id, a.id, 'spam', rule, T0);
        await s.store.moderation.report(other.id, a.id, 'phishing', rule, T0);
        await s.store.moderation.report(other.id, b.id, 'malware', rule, at(MINUTE));
        await s.store.links.setState(other.code, 'flagged', at(MINUTE));
        await s.store.moderation.askForReview(other.id, a.id, 'please', at(2 * MINUTE));
        const all = await s.store.moderation.openReports(rule, at(3 * MINUTE));
        expect(await s.store.moderation.openReports(rule, at(3 * MINUTE), other.id)).toEqual(all.filter((r) => r.linkCode === other.code));
        expect((await s.store.moderation.openReports(rule, at(3 * MINUTE), other.id)).map((r) => r.reason)).toEqual(['phishing', 'malware']);
        expect((await s.store.moderation.openReports(rule, at(3 * MINUTE), link.id)).map((r) => r.reason)).toEqual(['spam']);
        expect(await s.store.moderation.openReports(rule, at(3 * MINUTE), quiet.id)).toEqual([]);
        expect((await s.store.moderation.openReviews(other.id)).map((r) => r.reason)).toEqual(['please']);
        expect(await s.store.moderation.openReviews(link.id)).toEqual([]);
      });
    });
  });
}
