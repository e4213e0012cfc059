import { describe, expect, it } from 'vitest';
import { INVITATION_MS } from '../../../src/domain/invitations.js';
import { at, MINUTE, storeUnderTest, T0, type OpenStore } from './fixtures.js';

export function invitations(open: OpenStore): void {
  describe('team invitations', () => {
    const s = storeUnderTest(open);
    /** Ann's team, and Bob, who has an account and is not in it. */
    const annBobAndTeam = async () => {
      const ann = await s.person({ email: 'ann@example.com' });
      const bob = await s.person({ email: 'bob@example.com' });
      return { ann, bob, team: await s.team(ann) };
    };

    it('invites an email, with or without an account yet, and lists it for the team and for the email', async () => {
      const ann = await s.person({ email: 'ann@example.com' });
      const team = await s.team(ann, 'Blue');
      expect(await s.store.invitations.invite(team.id, 'bob@example.com', ann.id, at(MINUTE))).toBe('invited');
      expect(await s.store.invitations.invite(team.id, 'nobody-yet@example.com', ann.id, at(2 * MINUTE))).toBe('invited');
      const bob = { teamId: team.id, teamName: 'Blue', email: 'bob@example.com', invitedBy: 'ann@example.com', createdAt: at(MINUTE).toISOString() };
      const nobody = { ...bob, email: 'nobody-yet@example.com', createdAt: at(2 * MINUTE).toISOString() };
      expect(await s.store.invitations.ofTeam(team.id, at(3 * MINUTE))).toEqual([nobody, bob]);
      expect(await s.store.invitations.forEmail('bob@example.com', at(3 * MINUTE))).toEqual([bob]);
      expect(await s.store.invitations.forEmail('carol@example.com', at(3 * MINUTE))).toEqual([]);
      // Nobody joined: an invitation is not a membership.
      expect((await s.store.teams.members(team.id)).map((m) => m.email)).toEqual(['ann@example.com']);
    });

    it('inviting again renews the invitation: who invited, and when', async () => {
      const [ann, cid] = [await s.person({ email: 'ann@example.com' }), await s.person({ email: 'cid@example.com' })];
      const team = await s.team(ann);
      await s.store.teams.addMember(team.id, cid.id, T0);
      await s.store.invitations.invite(team.id, 'bob@example.com', ann.id, at(MINUTE));
      expect(await s.store.invitations.invite(team.id, 'bob@example.com', cid.id, at(5 * MINUTE))).toBe('invited');
      expect(await s.store.invitations.forEmail('bob@example.com', at(6 * MINUTE))).toEqual([
        expect.objectContaining({ invitedBy: 'cid@example.com', createdAt: at(5 * MINUTE).toISOString() }),
      ]);
    });

    it('changes nothing for someone in the team already, or a team that is gone', async () => {
      const ann = await s.person({ email: 'ann@example.com' });
      const team = await s.team(ann);
      expect(await s.store.invitations.invite(team.id, 'ann@example.com', ann.id, at(MINUTE))).toBe('member');
      expect(await s.store.invitations.invite('team_unknown', 'bob@example.com', ann.id, at(MINUTE))).toBe('no_team');
      expect(await s.store.invitations.ofTeam(team.id, at(MINUTE))).toEqual([]);
      expect(await s.store.invitations.forEmail('bob@example.com', at(MINUTE))).toEqual([]);
    });

    it('stands for a week: not listed after, and gone for good at the next invitation', async () => {
      const ann = await s.person({ email: 'ann@example.com' });
      const team = await s.team(ann);
      await s.store.invitations.invite(team.id, 'bob@example.com', ann.id, T0);
      expect(await s.store.invitations.forEmail('bob@example.com', new Date(T0.getTime() + INVITATION_MS - 1))).toHaveLength(1);
      const weekLater = new Date(T0.getTime() + INVITATION_MS);
      expect(await s.store.invitations.forEmail('bob@example.com', weekLater)).toEqual([]);
      expect(await s.store.invitations.ofTeam(team.id, weekLater)).toEqual([]);
      await s.store.invitations.invite(team.id, 'cid@example.com', ann.id, weekLater);
      // Read as of the first invitation's own time, it is still gone: it was removed, not only hidden.
      expect(await s.store.invitations.forEmail('bob@example.com', T0)).toEqual([]);
      expect(await s.store.invitations.remove(team.id, 'bob@example.com')).toBe(false);
    });

    it('accepting joins the team and spends the invitation; only a standing one opens anything', async () => {
      const { ann, bob, team } = await annBobAndTeam();
      expect(await s.store.invitations.accept(team.id, bob.id, 'bob@example.com', at(MINUTE))).toBe('not_open');
      await s.store.invitations.invite(team.id, 'bob@example.com', ann.id, at(MINUTE));
      // Another person's email opens nothing for them.
      expect(await s.store.invitations.accept(team.id, ann.id, 'ann@example.com', at(2 * MINUTE))).toBe('not_open');
      expect(await s.store.invitations.accept(team.id, bob.id, 'bob@example.com', at(2 * MINUTE))).toBe('joined');
      expect(await s.store.teams.isMember(team.id, bob.id)).toBe(true);
      expect(await s.store.invitations.ofTeam(team.id, at(2 * MINUTE))).toEqual([]);
      // Removed later, they cannot come back with the invitation they already used.
      expect(await s.store.teams.removeMember(team.id, bob.id, { personId: ann.id })).toBe('removed');
      expect(await s.store.invitations.accept(team.id, bob.id, 'bob@example.com', at(3 * MINUTE))).toBe('not_open');
      expect(await s.store.teams.isMember(team.id, bob.id)).toBe(false);
    });

    it('a week-old or taken back invitation opens nothing', async () => {
      const { ann, bob, team } = await annBobAndTeam();
      await s.store.invitations.invite(team.id, 'bob@example.com', ann.id, T0);
      expect(await s.store.invitations.accept(team.id, bob.id, 'bob@example.com', new Date(T0.getTime() + INVITATION_MS))).toBe('not_open');
      await s.store.invitations.invite(team.id, 'bob@example.com', ann.id, at(MINUTE));
      expect(await s.store.invitations.remove(team.id, 'bob@example.com')).toBe(true);
      expect(await s.store.invitations.accept(team.id, bob.id, 'bob@example.com', at(2 * MINUTE))).toBe('not_open');
      expect(await s.store.teams.isMember(team.id, bob.id)).toBe(false);
    });

    it("adding a member directly (the operator) spends their invitation, so it cannot bring them back later", async () => {
      const { ann, bob, team } = await annBobAndTeam();
      await s.store.invitations.invite(team.id, 'bob@example.com', ann.id, T0);
      expect(await s.store.teams.addMember(team.id, bob.id, at(MINUTE))).toBe('added');
      expect(await s.store.invitations.ofTeam(team.id, at(MINUTE))).toEqual([]);
      expect(await s.store.teams.removeMember(team.id, bob.id, 'operator')).toBe('removed');
      expect(await s.store.invitations.accept(team.id, bob.id, 'bob@example.com', at(2 * MINUTE))).toBe('not_open');
    });

    it('removes one invitation, once; deleting the team takes its invitations', async () => {
      const [ann, cid] = [await s.person({ email: 'ann@example.com' }), await s.person({ email: 'cid@example.com' })];
      const team = await s.team(ann);
      const other = await s.team(cid);
      await s.store.invitations.invite(team.id, 'bob@example.com', ann.id, T0);
      await s.store.invitations.invite(other.id, 'bob@example.com', cid.id, at(MINUTE));
      expect(await s.store.invitations.remove(team.id, 'bob@example.com')).toBe(true);
      expect(await s.store.invitations.remove(team.id, 'bob@example.com')).toBe(false);
      expect((await s.store.invitations.forEmail('bob@example.com', at(MINUTE))).map((i) => i.teamId)).toEqual([other.id]);
      await s.store.invitations.invite(team.id, 'bob@example.com', ann.id, at(2 * MINUTE));
      expect(await s.store.teams.delete(team.id, { personId: ann.id })).toEqual({ links: 0 });
      expect((await s.store.invitations.forEmail('bob@example.com', at(2 * MINUTE))).map((i) => i.teamId)).toEqual([other.id]);
    });
  });
}
