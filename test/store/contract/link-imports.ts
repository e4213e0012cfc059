import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/errors.js';
import type { ImportItem, ImportOutcome, Team } from '../../../src/store/ports.js';
import { ROOMY, storeUnderTest, T0, type OpenStore } from './fixtures.js';

/** An outcome as a test compares it: what was made (code, name), left out, a duplicate's code, or a refusal's code. */
const shown = (outcome: ImportOutcome) =>
  outcome instanceof ApiError
    ? { refused: outcome.code }
    : 'duplicateOf' in outcome
      ? { duplicateOf: outcome.duplicateOf }
      : { made: outcome.made.name, nameLeftOut: outcome.nameLeftOut?.code ?? null };

export function linkImports(open: OpenStore): void {
  describe('link imports (importMany)', () => {
    const s = storeUnderTest(open);
    const item = (team: Team, destination: string, name: string | null, nameIfFree = false): ImportItem => ({
      teamId: team.id, teamCreatedAt: new Date(team.createdAt), destination, name, note: null, nameIfFree,
    });

    it('makes new items, and skips one whose destination and name a link of the team has, in the file or before', async () => {
      const team = await s.team();
      const before = await s.link(team, { destination: 'https://example.com/a', name: 'alpha' });
      const outcomes = await s.store.links.importMany(
        [
          item(team, 'https://example.com/a', 'alpha'),
          item(team, 'https://example.com/a', null),
          item(team, 'https://example.com/b', null),
          item(team, 'https://example.com/b', null),
        ],
        ROOMY,
        T0,
      );
      const made = outcomes[1] as { made: { code: string } };
      expect(outcomes.map(shown)).toEqual([
        { duplicateOf: before.code },
        { made: null, nameLeftOut: null },
        { made: null, nameLeftOut: null },
        { duplicateOf: (outcomes[2] as { made: { code: string } }).made.code },
      ]);
      // Another team's link with the same destination and name is no duplicate.
      const other = await s.team();
      const theirs = await s.store.links.importMany([item(other, 'https://example.com/a', null)], ROOMY, T0);
      expect(theirs.map(shown)).toEqual([{ made: null, nameLeftOut: null }]);
      expect(made.made.code).not.toBe((theirs[0] as { made: { code: string } }).made.code);
    });

    it("leaves out a peer's slug that is taken or reserved, and refuses a plain row's name as create does", async () => {
      const team = await s.team();
      const elsewhere = await s.team();
      await s.link(elsewhere, { destination: 'https://example.com/x', name: 'taken' });
      const outcomes = await s.store.links.importMany(
        [
          item(team, 'https://example.com/1', 'taken', true),
          item(team, 'https://example.com/2', 'taken'),
          item(team, 'https://example.com/3', 'fresh', true),
          item(team, 'https://example.com/4', 'fresh', true),
        ],
        ROOMY,
        T0,
      );
      expect(outcomes.map(shown)).toEqual([
        { made: null, nameLeftOut: 'name_taken' },
        { refused: 'name_taken' },
        { made: 'fresh', nameLeftOut: null },
        { made: null, nameLeftOut: 'name_taken' },
      ]);
    });

    it('runs again without making anything twice: a slug left out before finds its link without the name', async () => {
      const team = await s.team();
      await s.link(await s.team(), { destination: 'https://example.com/x', name: 'taken' });
      const items = [item(team, 'https://example.com/1', 'taken', true), item(team, 'https://example.com/2', 'mine', true)];
      const first = await s.store.links.importMany(items, ROOMY, T0);
      const again = await s.store.links.importMany(items, ROOMY, T0);
      const codes = first.map((outcome) => (outcome as { made: { code: string } }).made.code);
      expect(again.map(shown)).toEqual(codes.map((code) => ({ duplicateOf: code })));
    });

    it('answers a dry run with the outcomes the real run gives, and makes nothing', async () => {
      const team = await s.team();
      const before = await s.link(team, { destination: 'https://example.com/a', name: 'alpha' });
      const items = [item(team, 'https://example.com/a', 'alpha'), item(team, 'https://example.com/b', 'alpha', true), item(team, 'https://example.com/b', null)];
      const dry = await s.store.links.importMany(items, { ...ROOMY, maxLinksPerTeam: 2 }, T0, true);
      expect(dry.map(shown)).toEqual([{ duplicateOf: before.code }, { made: null, nameLeftOut: 'name_taken' }, { duplicateOf: expect.any(String) }]);
      expect(await s.store.links.list(team.id, { state: null, q: null }, { after: null, limit: 10 })).toEqual([before]);
      const real = await s.store.links.importMany(items, { ...ROOMY, maxLinksPerTeam: 2 }, T0);
      // The same, but for the code the real run drew for the link the third row duplicates.
      const made = (real[1] as { made: { code: string } }).made.code;
      expect(real.map(shown)).toEqual([{ duplicateOf: before.code }, { made: null, nameLeftOut: 'name_taken' }, { duplicateOf: made }]);
    });

    it("counts made items against the team's limits, each refused alone as createMany refuses", async () => {
      const team = await s.team();
      const limits = { ...ROOMY, maxLinksPerTeam: 1 };
      const outcomes = await s.store.links.importMany([item(team, 'https://example.com/1', null), item(team, 'https://example.com/2', null)], limits, T0);
      expect(outcomes.map(shown)).toEqual([{ made: null, nameLeftOut: null }, { refused: 'team_full' }]);
    });
  });
}
