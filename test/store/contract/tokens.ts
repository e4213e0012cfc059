import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { at, MINUTE, storeUnderTest, T0, type OpenStore } from './fixtures.js';

export function tokens(open: OpenStore): void {
  describe('tokens', () => {
    const s = storeUnderTest(open);

    /** A token of a member of someone else's team (so that the operator may remove them). */
    async function token(scopes: string[] | null = null, limited = false, now = T0, label?: string | null) {
      const person = await s.person({ agreedTerms: false });
      const team = await s.team();
      await s.store.teams.addMember(team.id, person.id, T0);
      const secretHash = randomBytes(32);
      const record = await s.store.tokens.add({ personId: person.id, teamId: team.id, label, scopes, limited, secretHash }, now);
      return { person, team, secretHash, record };
    }

    it('adds a token and grants it with its secret hash and what authentication needs of its person', async () => {
      const { person, team, secretHash, record } = await token(['listLinks', 'getLink'], true);
      expect(record).toEqual({
        id: expect.any(String), personId: person.id, teamId: team.id, label: null, scopes: ['listLinks', 'getLink'], limited: true,
        createdAt: T0.toISOString(), lastUsedAt: null, expiresAt: null, revokedAt: null,
      });
      const grant = await s.store.tokens.grant(record.id);
      expect(grant).toEqual({ ...record, secretHash: expect.any(Buffer), personAgreedTerms: false, personInTeam: true });
      expect(grant!.secretHash.equals(secretHash)).toBe(true);
      expect(await s.store.tokens.grant('tok_unknown')).toBeNull();
    });

    it('keeps the label as given, in the record, the grant and the list', async () => {
      const { person, record } = await token(null, false, T0, 'deploy script ✓');
      expect(record.label).toBe('deploy script ✓');
      expect((await s.store.tokens.grant(record.id))!.label).toBe('deploy script ✓');
      expect(await s.store.tokens.listForPerson(person.id)).toEqual([record]);
    });

    it('keeps a token for every operation as scopes null, not limited', async () => {
      const { record } = await token(null, false);
      expect(await s.store.tokens.grant(record.id)).toMatchObject({ scopes: null, limited: false });
    });

    it("grants follow the person's agreement and membership as they change", async () => {
      const { person, team, record } = await token();
      await s.store.people.agreeTerms(person.id, at(MINUTE));
      expect(await s.store.tokens.grant(record.id)).toMatchObject({ personAgreedTerms: true, personInTeam: true });
      expect(await s.store.teams.removeMember(team.id, person.id, 'operator')).toBe('removed');
      expect(await s.store.tokens.grant(record.id)).toMatchObject({ personAgreedTerms: true, personInTeam: false });
      await s.store.teams.addMember(team.id, person.id, at(2 * MINUTE));
      expect(await s.store.tokens.grant(record.id)).toMatchObject({ personInTeam: true });
    });

    it("lists the person's tokens that are not revoked, newest first", async () => {
      const { person, team, record: first } = await token();
      const add = (minutes: number) =>
        s.store.tokens.add({ personId: person.id, teamId: team.id, scopes: null, limited: false, secretHash: randomBytes(32) }, at(minutes * MINUTE));
      const third = await add(2);
      const second = await add(1);
      await token();
      expect(await s.store.tokens.listForPerson(person.id)).toEqual([third, second, first]);
      expect(await s.store.tokens.revoke(second.id, at(3 * MINUTE))).toBe(true);
      expect(await s.store.tokens.listForPerson(person.id)).toEqual([third, first]);
      expect(await s.store.tokens.listForPerson('person_unknown')).toEqual([]);
    });

    it('revokes a token once', async () => {
      const { record } = await token();
      expect(await s.store.tokens.revoke(record.id, at(MINUTE))).toBe(true);
      expect(await s.store.tokens.revoke(record.id, at(2 * MINUTE))).toBe(false);
      expect(await s.store.tokens.revoke('tok_unknown', at(2 * MINUTE))).toBe(false);
      expect((await s.store.tokens.grant(record.id))!.revokedAt).toBe(at(MINUTE).toISOString());
    });

    it('touching never fails, an unknown token included', async () => {
      await expect(s.store.tokens.touch('tok_unknown', T0)).resolves.toBeUndefined();
    });

    it('records the last use, seen once the store is opened again', async (ctx) => {
      if (!s.canReopen) ctx.skip();
      const { person, record } = await token();
      await s.store.tokens.touch(record.id, at(MINUTE));
      await s.store.tokens.touch(record.id, at(2 * MINUTE));
      const store = await s.reopen();
      expect((await store.tokens.grant(record.id))!.lastUsedAt).toBe(at(2 * MINUTE).toISOString());
      expect(await store.tokens.listForPerson(person.id)).toEqual([{ ...record, lastUsedAt: at(2 * MINUTE).toISOString() }]);
    });
  });
}
