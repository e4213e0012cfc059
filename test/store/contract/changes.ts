import { describe, expect, it } from 'vitest';
import { looksLikeCode } from '../../../src/domain/code.js';
import type { LinkRecord, Store } from '../../../src/store/ports.js';
import { at, failure, MINUTE, ROOMY, sorted, storeUnderTest, T0, type OpenStore } from './fixtures.js';

/** What a listener was told, and what a read started from the listener found for each key. */
interface Told {
  keys: string[] | null;
  seen: Record<string, Pick<LinkRecord, 'code' | 'name' | 'destination' | 'state'> | null>;
}

/** Subscribes; `told()` answers (and forgets) what was told since the last call. */
function listen(store: Store): () => Promise<Told[]> {
  const told: Array<Promise<Told>> = [];
  const summary = (link: LinkRecord | null) => link && { code: link.code, name: link.name, destination: link.destination, state: link.state };
  store.changes.subscribe((keys) => {
    // An empty list tells nothing (the SQLite adapter tells one after every operation that touched no link).
    if (keys?.length === 0) return;
    const reads = (keys ?? []).map(async (key) => {
      const link = looksLikeCode(key) ? await store.links.findByCode(key) : await store.links.findByName(key);
      return [key, summary(link)] as const;
    });
    told.push(Promise.all(reads).then((seen) => ({ keys: keys && sorted(keys), seen: Object.fromEntries(seen) })));
  });
  return () => Promise.all(told.splice(0));
}

export function changes(open: OpenStore): void {
  describe('changes', () => {
    const s = storeUnderTest(open);

    it('tells the codes and names each committed change touched, in time for a read to see it', async () => {
      const told = listen(s.store);
      const team = await s.team();
      const link = await s.link(team, { name: 'told', destination: 'https://example.com/one' });
      const summary = { code: link.code, name: 'told', destination: 'https://example.com/one', state: 'active' };
      expect(await told()).toEqual([{ keys: sorted([link.code, 'told']), seen: { [link.code]: summary, told: summary } }]);

      await s.store.links.setDestination(link.id, 'https://example.com/two', ROOMY, at(MINUTE));
      const moved = { ...summary, destination: 'https://example.com/two' };
      expect(await told()).toEqual([{ keys: sorted([link.code, 'told']), seen: { [link.code]: moved, told: moved } }]);

      await s.store.links.rename(link.id, 'retold', ROOMY, at(2 * MINUTE));
      const renamed = { ...moved, name: 'retold' };
      expect(await told()).toEqual([
        { keys: sorted([link.code, 'told', 'retold']), seen: { [link.code]: renamed, told: null, retold: renamed } },
      ]);

      await s.store.links.setState(link.code, 'disabled', at(3 * MINUTE));
      const disabled = { ...renamed, state: 'disabled' };
      expect(await told()).toEqual([{ keys: sorted([link.code, 'retold']), seen: { [link.code]: disabled, retold: disabled } }]);

      await s.store.links.delete(link.id, ROOMY, at(4 * MINUTE));
      expect(await told()).toEqual([{ keys: sorted([link.code, 'retold']), seen: { [link.code]: null, retold: null } }]);
    });

    it('tells a link without a name by its code alone', async () => {
      const told = listen(s.store);
      const link = await s.link(await s.team());
      await s.store.links.setDestination(link.id, 'https://example.com/moved', ROOMY, at(MINUTE));
      expect((await told()).map((t) => t.keys)).toEqual([[link.code], [link.code]]);
    });

    it('tells the link a report flagged, and nothing for a report that flagged nothing', async () => {
      const link = await s.link(await s.team());
      const told = listen(s.store);
      const rule = { reportsToFlag: 2, establishedAfterHours: 72 };
      const reporters = [await s.person({ addedByOperator: true }), await s.person({ addedByOperator: true })];
      await s.store.moderation.report(link.id, reporters[0]!.id, 'spam', rule, T0);
      expect(await told()).toEqual([]);
      await s.store.moderation.report(link.id, reporters[1]!.id, 'spam', rule, T0);
      const flagged = { code: link.code, name: null, destination: link.destination, state: 'flagged' };
      expect(await told()).toEqual([{ keys: [link.code], seen: { [link.code]: flagged } }]);
    });

    it('tells nothing for a change that failed', async () => {
      const team = await s.team();
      await s.link(team, { name: 'taken' });
      const link = await s.link(team, { name: 'mine' });
      await s.store.links.setState(link.code, 'flagged', T0);
      const told = listen(s.store);
      await failure(s.link(team, { name: 'taken' }));
      await failure(s.link(team, {}, T0, { ...ROOMY, maxLinksPerTeam: 2 }));
      await failure(s.store.links.setDestination(link.id, 'https://example.com/x', ROOMY, T0));
      await failure(s.store.links.rename(link.id, 'taken', ROOMY, T0));
      await failure(s.store.links.delete('link_unknown', ROOMY, T0));
      expect(await told()).toEqual([]);
    });

    it('catches up with other writers without failing', async () => {
      await expect(s.store.changes.catchUp()).resolves.toBeUndefined();
    });
  });
}
