import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Person, Team } from '../../../src/store/ports.js';
import { at, failure, MINUTE, ROOMY, storeUnderTest, T0, type OpenStore } from './fixtures.js';

/**
 * Who belongs to a team and what becomes of it: removals judged by the rules (domain/team-roles.ts) inside one
 * transaction, so that people acting at once cannot break them; renaming; deleting a team with its links.
 */
export function teamChanges(open: OpenStore): void {
  describe('team changes', () => {
    const s = storeUnderTest(open);

    /** A team of one owner (its maker) and `members` plain members. */
    async function crew(members = 1): Promise<{ team: Team; owner: Person; members: Person[] }> {
      const owner = await s.person();
      const team = await s.team(owner, 'Crew');
      const added: Person[] = [];
      for (let i = 0; i < members; i++) {
        const person = await s.person();
        await s.store.teams.addMember(team.id, person.id, T0);
        added.push(person);
      }
      return { team, owner, members: added };
    }

    /** Each member's role, by person id. */
    const roles = async (team: Team) => Object.fromEntries((await s.store.teams.members(team.id)).map((m) => [m.personId, m.role]));

    describe('removing members', () => {
      it('lets anyone leave and an owner remove others; a member removing someone else is not_owner', async () => {
        const { team, owner, members: [ann, bob] } = await crew(2);
        expect(await s.store.teams.removeMember(team.id, bob!.id, { personId: ann!.id })).toBe('not_owner');
        expect(await s.store.teams.removeMember(team.id, owner.id, { personId: ann!.id })).toBe('not_owner');
        expect(await s.store.teams.isMember(team.id, bob!.id)).toBe(true);
        expect(await s.store.teams.removeMember(team.id, ann!.id, { personId: ann!.id })).toBe('removed');
        expect(await s.store.teams.removeMember(team.id, bob!.id, { personId: owner.id })).toBe('removed');
        expect(await roles(team)).toEqual({ [owner.id]: 'owner' });
      });

      it('answers not_member for someone not in the team, and no_team to a stranger or for an unknown team', async () => {
        const { team, owner, members: [ann] } = await crew(1);
        const stranger = await s.person();
        expect(await s.store.teams.removeMember(team.id, stranger.id, { personId: owner.id })).toBe('not_member');
        expect(await s.store.teams.removeMember(team.id, ann!.id, { personId: stranger.id })).toBe('no_team');
        expect(await s.store.teams.removeMember(team.id, stranger.id, { personId: stranger.id })).toBe('no_team');
        expect(await s.store.teams.removeMember('team_unknown', owner.id, 'operator')).toBe('no_team');
        expect(await s.store.teams.removeMember('team_unknown', owner.id, { personId: owner.id })).toBe('no_team');
        expect(await s.store.teams.isMember(team.id, ann!.id)).toBe(true);
      });

      it('keeps the only owner, whoever asks, with others in the team or alone', async () => {
        const { team, owner, members: [ann] } = await crew(1);
        expect(await s.store.teams.removeMember(team.id, owner.id, { personId: owner.id })).toBe('last_owner');
        expect(await s.store.teams.removeMember(team.id, owner.id, 'operator')).toBe('last_owner');
        expect(await s.store.teams.removeMember(team.id, ann!.id, 'operator')).toBe('removed');
        expect(await s.store.teams.removeMember(team.id, owner.id, { personId: owner.id })).toBe('last_owner');
        expect(await roles(team)).toEqual({ [owner.id]: 'owner' });
      });
    });

    describe('making owners', () => {
      it('lets an owner or the operator make a member an owner; again changes nothing', async () => {
        const { team, owner, members: [ann, bob] } = await crew(2);
        expect(await s.store.teams.makeOwner(team.id, ann!.id, { personId: owner.id })).toBe('made');
        expect(await s.store.teams.makeOwner(team.id, ann!.id, { personId: owner.id })).toBe('already');
        expect(await s.store.teams.makeOwner(team.id, bob!.id, 'operator')).toBe('made');
        expect(await roles(team)).toEqual({ [owner.id]: 'owner', [ann!.id]: 'owner', [bob!.id]: 'owner' });
        // With another owner, the first may leave.
        expect(await s.store.teams.removeMember(team.id, owner.id, { personId: owner.id })).toBe('removed');
      });

      it('refuses a member (not_owner), a stranger (no_team), and someone not in the team (not_member)', async () => {
        const { team, owner, members: [ann, bob] } = await crew(2);
        const stranger = await s.person();
        expect(await s.store.teams.makeOwner(team.id, bob!.id, { personId: ann!.id })).toBe('not_owner');
        expect(await s.store.teams.makeOwner(team.id, ann!.id, { personId: ann!.id })).toBe('not_owner');
        expect(await s.store.teams.makeOwner(team.id, ann!.id, { personId: stranger.id })).toBe('no_team');
        expect(await s.store.teams.makeOwner(team.id, stranger.id, { personId: owner.id })).toBe('not_member');
        expect(await s.store.teams.makeOwner('team_unknown', ann!.id, 'operator')).toBe('no_team');
        expect(await roles(team)).toEqual({ [owner.id]: 'owner', [ann!.id]: 'member', [bob!.id]: 'member' });
      });
    });

    describe('two owners leaving at the same moment', () => {
      /** A team of two owners and a plain member. */
      async function twoOwners(): Promise<{ team: Team; first: Person; second: Person; member: Person }> {
        const { team, owner: first, members: [second, member] } = await crew(2);
        expect(await s.store.teams.makeOwner(team.id, second!.id, { personId: first.id })).toBe('made');
        return { team, first, second: second!, member: member! };
      }

      it('lets exactly one go: the team keeps an owner', async () => {
        for (let round = 0; round < 10; round++) {
          const { team, first, second, member } = await twoOwners();
          const answers = await Promise.all([
            s.store.teams.removeMember(team.id, first.id, { personId: first.id }),
            s.store.teams.removeMember(team.id, second.id, { personId: second.id }),
          ]);
          expect(answers.sort()).toEqual(['last_owner', 'removed']);
          const left = await s.store.teams.members(team.id);
          expect(left.filter((m) => m.role === 'owner')).toHaveLength(1);
          expect(left.map((m) => m.personId)).toContain(member.id);
        }
      });

      it('lets exactly one of two owners removing each other succeed', async () => {
        for (let round = 0; round < 10; round++) {
          const { team, first, second } = await twoOwners();
          const answers = await Promise.all([
            s.store.teams.removeMember(team.id, second.id, { personId: first.id }),
            s.store.teams.removeMember(team.id, first.id, { personId: second.id }),
          ]);
          // The second to run finds its actor gone: no team among theirs.
          expect(answers.sort()).toEqual(['no_team', 'removed']);
          expect((await s.store.teams.members(team.id)).filter((m) => m.role === 'owner')).toHaveLength(1);
        }
      });
    });

    describe('renaming', () => {
      it('renames for an owner or the operator, everywhere the team is read', async () => {
        const { team, owner } = await crew(0);
        expect(await s.store.teams.rename(team.id, 'Renamed', { personId: owner.id })).toEqual({ ...team, name: 'Renamed' });
        expect(await s.store.teams.get(team.id)).toEqual({ ...team, name: 'Renamed' });
        expect(await s.store.teams.listForPerson(owner.id, { limit: 10, after: null })).toEqual([{ ...team, name: 'Renamed' }]);
        expect(await s.store.teams.rename(team.id, 'By the operator', 'operator')).toEqual({ ...team, name: 'By the operator' });
      });

      it('refuses a member (not_owner) and a stranger or an unknown team (no_team), changing nothing', async () => {
        const { team, members: [ann] } = await crew(1);
        const stranger = await s.person();
        expect(await s.store.teams.rename(team.id, 'Mine now', { personId: ann!.id })).toBe('not_owner');
        expect(await s.store.teams.rename(team.id, 'Mine now', { personId: stranger.id })).toBe('no_team');
        expect(await s.store.teams.rename('team_unknown', 'Mine now', 'operator')).toBe('no_team');
        expect(await s.store.teams.get(team.id)).toEqual(team);
      });
    });

    describe('deleting', () => {
      /** A team with a named link, a plain one, a disabled one, a name kept after a rename, a member and a token. */
      async function fullTeam() {
        const { team, owner, members: [ann] } = await crew(1);
        s.random.drawNext('Qx7pLm2', 'Rt5kWn8', 'Zz1aBb3');
        const named = await s.link(team, { name: 'named' });
        const plain = await s.link(team);
        const disabled = await s.link(team, { name: 'renamed-away' });
        await s.store.links.rename(disabled.id, 'kept-after', ROOMY, at(MINUTE));
        await s.store.links.setState(disabled.code, 'disabled', at(MINUTE));
        const token = await s.store.tokens.add({ personId: ann!.id, teamId: team.id, scopes: null, limited: false, secretHash: randomBytes(32) }, T0);
        return { team, owner, ann: ann!, links: [named, plain, disabled], token };
      }

      it('refuses a member (not_owner) and a stranger (no_team), deleting nothing', async () => {
        const { team, ann, links } = await fullTeam();
        const stranger = await s.person();
        expect(await s.store.teams.delete(team.id, { personId: ann.id })).toBe('not_owner');
        expect(await s.store.teams.delete(team.id, { personId: stranger.id })).toBe('no_team');
        expect(await s.store.teams.delete('team_unknown', 'operator')).toBe('no_team');
        expect(await s.store.teams.get(team.id)).toEqual(team);
        expect(await s.store.teams.linkCount(team.id)).toBe(3);
        for (const link of links) expect(await s.store.links.findByCode(link.code)).not.toBeNull();
      });

      it('deletes the team with its links, members and memberships; its tokens answer as left', async () => {
        const { team, owner, ann, links, token } = await fullTeam();
        expect(await s.store.teams.delete(team.id, { personId: owner.id })).toEqual({ links: 3 });
        expect(await s.store.teams.get(team.id)).toBeNull();
        expect(await s.store.teams.linkCount(team.id)).toBeNull();
        expect(await s.store.teams.members(team.id)).toEqual([]);
        for (const person of [owner, ann]) {
          expect(await s.store.teams.isMember(team.id, person.id)).toBe(false);
          expect(await s.store.teams.listForPerson(person.id, { limit: 10, after: null })).toEqual([]);
        }
        for (const link of links) expect(await s.store.links.findByCode(link.code)).toBeNull();
        for (const name of ['named', 'kept-after']) expect(await s.store.links.findByName(name)).toBeNull();
        expect(await s.store.links.list(team.id, { state: null, q: null }, { limit: 10, after: null })).toEqual([]);
        expect(await s.store.tokens.grant(token.id)).toMatchObject({ revokedAt: null, personInTeam: false });
        expect(await s.store.teams.delete(team.id, 'operator')).toBe('no_team');
        expect(await s.store.teams.addMember(team.id, ann.id, at(MINUTE))).toBe('no_team');
        expect(await s.store.teams.isMember(team.id, ann.id)).toBe(false);
      });

      it('never issues its links’ codes and names again, as deleteLink would not', async () => {
        const { team, owner } = await fullTeam();
        await s.store.teams.delete(team.id, { personId: owner.id });
        const other = await s.team();
        s.random.drawNext('Qx7pLm2', 'Rt5kWn8', 'Zz1aBb3', 'Ab3dEf4');
        expect((await s.link(other)).code).toBe('Ab3dEf4');
        // A deleted link's name is retired; one its team kept after a rename stays taken, as deleteLink leaves it.
        expect(await failure(s.link(other, { name: 'named' }))).toEqual({ status: 400, code: 'reserved_name', field: 'name' });
        expect(await failure(s.link(other, { name: 'kept-after' }))).toEqual({ status: 400, code: 'reserved_name', field: 'name' });
        expect(await failure(s.link(other, { name: 'renamed-away' }))).toEqual({ status: 409, code: 'name_taken', field: 'name' });
      });

      it('tells every listener the codes and names of the links that went', async () => {
        const { team, owner, links } = await fullTeam();
        const told: Array<string[] | null> = [];
        s.store.changes.subscribe((keys) => void (keys?.length !== 0 && told.push(keys)));
        await s.store.teams.delete(team.id, { personId: owner.id });
        expect(told).toEqual([[links[0]!.code, 'named', links[1]!.code, links[2]!.code, 'kept-after']]);
      });

      it('refuses a link for a team deleted meanwhile with not_found, and deletes an empty team', async () => {
        const { team, owner } = await crew(0);
        expect(await s.store.teams.linkCount(team.id)).toBe(0);
        expect(await s.store.teams.delete(team.id, { personId: owner.id })).toEqual({ links: 0 });
        expect(await failure(s.link(team))).toEqual({ status: 404, code: 'not_found', field: 'team' });
      });

      it('leaves nothing behind when links are made and changed while the team is deleted', async () => {
        const { team, owner } = await crew(0);
        const existing = await s.link(team);
        const settled = await Promise.allSettled([
          s.link(team),
          s.store.links.setDestination(existing.id, 'https://example.org/moved', ROOMY, at(MINUTE)),
          s.store.teams.delete(team.id, { personId: owner.id }),
          s.link(team),
        ]);
        const deleted = settled[2];
        expect(deleted).toMatchObject({ status: 'fulfilled' });
        for (const each of [settled[0], settled[1], settled[3]]) {
          if (each!.status === 'rejected') expect(await failure(Promise.reject(each!.reason))).toMatchObject({ status: 404, code: 'not_found' });
        }
        // Every link made before the deletion went with it; none could be made after.
        const made = settled.filter((each, i) => i !== 1 && i !== 2 && each.status === 'fulfilled').length;
        expect((deleted as PromiseFulfilledResult<{ links: number }>).value).toEqual({ links: 1 + made });
        expect(await s.store.links.findByCode(existing.code)).toBeNull();
        expect(await s.store.teams.linkCount(team.id)).toBeNull();
      });
    });
  });
}
