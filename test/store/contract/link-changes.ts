import { describe, expect, it } from 'vitest';
import { at, failure, MINUTE, ROOMY, storeUnderTest, T0, type OpenStore } from './fixtures.js';

const notFound = { status: 404, code: 'not_found', field: 'code' };
const nameTaken = { status: 409, code: 'name_taken', field: 'name' };
const reservedName = { status: 400, code: 'reserved_name', field: 'name' };

export function linkChanges(open: OpenStore): void {
  describe('link changes', () => {
    const s = storeUnderTest(open);

    describe('destination, note, name and deletion', () => {
      it('sets the destination, the note and the name, each stamping changedAt', async () => {
        const link = await s.link(await s.team(), { name: 'before', note: 'old' });
        const moved = await s.store.links.setDestination(link.id, 'https://example.org/moved', ROOMY, at(MINUTE));
        expect(moved).toEqual({ ...link, destination: 'https://example.org/moved', changedAt: at(MINUTE).toISOString() });
        const noted = await s.store.links.setNote(link.id, 'new note', at(2 * MINUTE));
        expect(noted).toEqual({ ...moved, note: 'new note', changedAt: at(2 * MINUTE).toISOString() });
        expect((await s.store.links.setNote(link.id, '', at(3 * MINUTE))).note).toBe('');
        expect((await s.store.links.setNote(link.id, null, at(3 * MINUTE))).note).toBeNull();
        const renamed = await s.store.links.rename(link.id, 'after', ROOMY, at(4 * MINUTE));
        expect(renamed).toEqual({ ...noted, note: null, name: 'after', changedAt: at(4 * MINUTE).toISOString() });
        expect(await s.store.links.findByCode(link.code)).toEqual(renamed);
        expect(await s.store.links.findByName('after')).toEqual(renamed);
        expect(await s.store.links.findByName('before')).toBeNull();
        const unnamed = await s.store.links.rename(link.id, null, ROOMY, at(5 * MINUTE));
        expect(unnamed).toEqual({ ...renamed, name: null, changedAt: at(5 * MINUTE).toISOString() });
      });

      it('renaming to the name the link has (or null to null) changes nothing', async () => {
        const team = await s.team();
        const named = await s.link(team, { name: 'same' });
        const unnamed = await s.link(team);
        expect(await s.store.links.rename(named.id, 'same', ROOMY, at(MINUTE))).toEqual(named);
        expect(await s.store.links.rename(unnamed.id, null, ROOMY, at(MINUTE))).toEqual(unnamed);
        expect(await s.store.links.findByCode(named.code)).toEqual(named);
      });

      it('setting the destination or the note it has (null to null too) changes nothing, nor counts as a change', async () => {
        const team = await s.team();
        const noted = await s.link(team, { note: 'kept' });
        const bare = await s.link(team);
        const one = { ...ROOMY, changesPerHour: 1 };
        expect(await s.store.links.setDestination(noted.id, noted.destination, one, at(MINUTE))).toEqual(noted);
        expect(await s.store.links.setNote(noted.id, 'kept', at(MINUTE))).toEqual(noted);
        expect(await s.store.links.setNote(bare.id, null, at(MINUTE))).toEqual(bare);
        expect(await s.store.links.findByCode(noted.code)).toEqual(noted);
        // The team's one change an hour is still there to use.
        const moved = await s.store.links.setDestination(noted.id, 'https://example.org/moved', one, at(2 * MINUTE));
        expect(moved.changedAt).toBe(at(2 * MINUTE).toISOString());
        expect((await failure(s.store.links.setDestination(bare.id, 'https://example.org/other', one, at(3 * MINUTE)))).code).toBe('limit_reached');
      });

      it('deletes a link: it is found nowhere and deleting it again is not_found', async () => {
        const team = await s.team();
        const link = await s.link(team, { name: 'doomed' });
        await s.store.links.delete(link.id, ROOMY, at(MINUTE));
        expect(await s.store.links.findByCode(link.code)).toBeNull();
        expect(await s.store.links.findByName('doomed')).toBeNull();
        expect(await s.store.links.list(team.id, { state: null, q: null }, { limit: 10, after: null })).toEqual([]);
        expect(await failure(s.store.links.delete(link.id, ROOMY, at(MINUTE)))).toEqual(notFound);
      });

      it('answers not_found for every change of an unknown link', async () => {
        expect(await failure(s.store.links.setDestination('link_unknown', 'https://example.com/', ROOMY, T0))).toEqual(notFound);
        expect(await failure(s.store.links.setNote('link_unknown', 'x', T0))).toEqual(notFound);
        expect(await failure(s.store.links.rename('link_unknown', 'nobody', ROOMY, T0))).toEqual(notFound);
        expect(await failure(s.store.links.delete('link_unknown', ROOMY, T0))).toEqual(notFound);
        expect(await s.store.links.setState('Unknown', 'flagged', T0)).toBeNull();
      });
    });

    describe('names', () => {
      it('refuses a name a live link holds, in any team, with name_taken', async () => {
        const [a, b] = [await s.team(), await s.team()];
        await s.link(a, { name: 'launch' });
        const other = await s.link(b);
        expect(await failure(s.link(b, { name: 'launch' }))).toEqual(nameTaken);
        expect(await failure(s.link(a, { name: 'launch' }))).toEqual(nameTaken);
        expect(await failure(s.store.links.rename(other.id, 'launch', ROOMY, T0))).toEqual(nameTaken);
      });

      it('keeps a renamed-away name for its team: only that team may take it again', async () => {
        const [a, b] = [await s.team(), await s.team()];
        const first = await s.link(a, { name: 'kept' });
        await s.store.links.rename(first.id, 'moved-on', ROOMY, T0);
        expect(await s.store.links.findByName('kept')).toBeNull();
        expect(await failure(s.link(b, { name: 'kept' }))).toEqual(nameTaken);
        expect(await failure(s.store.links.rename((await s.link(b)).id, 'kept', ROOMY, T0))).toEqual(nameTaken);
        const second = await s.link(a, { name: 'kept' }, at(MINUTE));
        expect(await s.store.links.findByName('kept')).toEqual(second);
        await s.store.links.rename(second.id, null, ROOMY, at(2 * MINUTE));
        expect((await s.store.links.rename(first.id, 'kept', ROOMY, at(3 * MINUTE))).name).toBe('kept');
      });

      it("reserves a deleted link's name for everyone, forever, with reserved_name", async () => {
        const [a, b] = [await s.team(), await s.team()];
        const link = await s.link(a, { name: 'farewell' });
        await s.store.links.delete(link.id, ROOMY, T0);
        expect(await failure(s.link(a, { name: 'farewell' }))).toEqual(reservedName);
        expect(await failure(s.link(b, { name: 'farewell' }))).toEqual(reservedName);
        expect(await failure(s.store.links.rename((await s.link(a)).id, 'farewell', ROOMY, T0))).toEqual(reservedName);
      });

      it('nameRefusal refuses exactly what create and rename would, on the field it is given, and holds nothing', async () => {
        const [a, b] = [await s.team(), await s.team()];
        const live = await s.link(a, { name: 'live-one' });
        const moved = await s.link(a, { name: 'kept-one' });
        await s.store.links.rename(moved.id, null, ROOMY, T0);
        await s.store.links.delete((await s.link(a, { name: 'gone-one' })).id, ROOMY, T0);
        const refusal = (name: string, teamId: string, linkId: string | null) =>
          s.store.links.nameRefusal(name, teamId, linkId, 'links[2].name').then(() => null, (error: unknown) => failure(Promise.reject(error)));
        const taken = { ...nameTaken, field: 'links[2].name' };
        // Held by a live link: taken for every other link, in any team, and free for the link that holds it.
        expect(await refusal('live-one', b.id, null)).toEqual(taken);
        expect(await refusal('live-one', a.id, null)).toEqual(taken);
        expect(await refusal('live-one', a.id, moved.id)).toEqual(taken);
        expect(await refusal('live-one', a.id, live.id)).toBeNull();
        // Kept by its team after a rename: free for that team's links only.
        expect(await refusal('kept-one', a.id, null)).toBeNull();
        expect(await refusal('kept-one', a.id, live.id)).toBeNull();
        expect(await refusal('kept-one', b.id, null)).toEqual(taken);
        // A deleted link's: reserved for everyone.
        expect(await refusal('gone-one', a.id, null)).toEqual({ ...reservedName, field: 'links[2].name' });
        expect(await refusal('never-held', b.id, null)).toBeNull();
        // Asking held nothing: the free names asked about are still free to take.
        expect((await s.link(b, { name: 'never-held' })).name).toBe('never-held');
        expect((await s.link(a, { name: 'kept-one' })).name).toBe('kept-one');
      });
    });

    describe('states', () => {
      it('the operator flags, disables and restores a link, stamping changedAt', async () => {
        const link = await s.link(await s.team(), { name: 'watched' });
        const flagged = await s.store.links.setState(link.code, 'flagged', at(MINUTE));
        expect(flagged).toEqual({ ...link, state: 'flagged', changedAt: at(MINUTE).toISOString() });
        const disabled = await s.store.links.setState(link.code, 'disabled', at(2 * MINUTE));
        expect(disabled).toEqual({ ...link, state: 'disabled', changedAt: at(2 * MINUTE).toISOString() });
        expect(await s.store.links.setState(link.code, 'disabled', at(3 * MINUTE))).toEqual(disabled);
        const restored = await s.store.links.setState(link.code, 'active', at(4 * MINUTE));
        expect(restored).toEqual({ ...link, changedAt: at(4 * MINUTE).toISOString() });
        expect(await s.store.links.findByCode(link.code)).toEqual(restored);
      });

      it('a flagged link keeps its destination and name (link_flagged) but takes a note and can be deleted', async () => {
        const link = await s.link(await s.team());
        await s.store.links.setState(link.code, 'flagged', T0);
        const linkFlagged = { status: 409, code: 'link_flagged', field: null };
        expect(await failure(s.store.links.setDestination(link.id, 'https://example.com/x', ROOMY, T0))).toEqual(linkFlagged);
        expect(await failure(s.store.links.rename(link.id, 'new-name', ROOMY, T0))).toEqual(linkFlagged);
        const detail = (op: Promise<unknown>) => op.then(() => null, (error: Error) => error.message);
        expect(await detail(s.store.links.rename(link.id, 'new-name', ROOMY, T0))).toMatch(/^The short link name cannot change/);
        expect(await detail(s.store.links.setDestination(link.id, 'https://example.com/x', ROOMY, T0))).toMatch(/^The destination cannot change/);
        expect(await s.store.links.setNote(link.id, 'explained', at(MINUTE))).toMatchObject({ state: 'flagged', note: 'explained' });
        await s.store.links.delete(link.id, ROOMY, at(MINUTE));
        expect(await s.store.links.findByCode(link.code)).toBeNull();
      });

      it('a disabled link changes nothing (link_disabled, conflict for a note) but can be deleted', async () => {
        const link = await s.link(await s.team(), { note: 'kept' });
        await s.store.links.setState(link.code, 'disabled', T0);
        const linkDisabled = { status: 409, code: 'link_disabled', field: null };
        expect(await failure(s.store.links.setDestination(link.id, 'https://example.com/x', ROOMY, T0))).toEqual(linkDisabled);
        expect(await failure(s.store.links.rename(link.id, 'new-name', ROOMY, T0))).toEqual(linkDisabled);
        expect(await failure(s.store.links.setNote(link.id, 'changed', T0))).toEqual({ status: 409, code: 'conflict', field: null });
        expect(await s.store.links.findByCode(link.code)).toMatchObject({ state: 'disabled', note: 'kept', destination: link.destination });
        await s.store.links.delete(link.id, ROOMY, at(MINUTE));
        expect(await s.store.links.findByCode(link.code)).toBeNull();
      });
    });
  });
}
