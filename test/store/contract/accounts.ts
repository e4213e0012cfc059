import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Person } from '../../../src/store/ports.js';
import { at, DAY_MS, HOUR_MS, MINUTE, storeUnderTest, T0, type OpenStore } from './fixtures.js';

const hash = () => randomBytes(32);

export function accounts(open: OpenStore): void {
  describe('accounts', () => {
    const s = storeUnderTest(open);

    const signIn = async (person: Person, now = T0, expiresAt = at(DAY_MS)) => {
      const idHash = hash();
      await s.store.webSessions.add(idHash, { personId: person.id, csrfSecret: 'csrf', expiresAt: expiresAt.toISOString() }, now);
      return idHash;
    };
    const signedIn = async (idHash: Buffer) => (await s.store.webSessions.find(idHash, T0)) !== null;
    const token = (person: Person, teamId: string) =>
      s.store.tokens.add({ personId: person.id, teamId, scopes: null, limited: false, secretHash: hash() }, T0);
    const grantOf = async (person: Person) => {
      const client = await s.store.oauth.addClient(
        { id: `oc_${randomBytes(6).toString('hex')}`, secretHash: null, name: 'Bot', redirectUris: ['http://127.0.0.1:1/cb'], metadata: {} },
        T0,
      );
      const code = { codeHash: hash(), personId: person.id, clientId: client.id, scopes: ['links:read'], redirectUri: 'http://127.0.0.1:1/cb' };
      const grantId = await s.store.oauth.saveCode({ ...code, codeChallenge: 'c', resource: 'https://x.example/mcp', expiresAt: at(MINUTE).toISOString() }, T0);
      const accessHash = hash();
      await s.store.oauth.saveTokens(
        { grantId, family: 'f1', scopes: ['links:read'], resource: 'https://x.example/mcp', accessHash, accessExpiresAt: at(HOUR_MS).toISOString(), refreshHash: hash(), refreshExpiresAt: at(DAY_MS).toISOString() },
        T0,
      );
      return accessHash;
    };

    it("lists the person's live sessions newest first, and ends one of theirs or all but one", async () => {
      const [person, other] = [await s.person(), await s.person()];
      const first = await signIn(person, T0);
      const second = await signIn(person, at(MINUTE));
      const third = await signIn(person, at(2 * MINUTE));
      await signIn(person, T0, at(MINUTE));
      const theirs = await signIn(other);
      const listed = await s.store.webSessions.ofPerson(person.id, at(MINUTE));
      expect(listed.map((x) => [Buffer.from(x.idHash).toString('hex'), x.createdAt, x.expiresAt])).toEqual(
        [[third, 2], [second, 1], [first, 0]].map(([h, m]) => [(h as Buffer).toString('hex'), at((m as number) * MINUTE).toISOString(), at(DAY_MS).toISOString()]),
      );
      expect(await s.store.webSessions.removeOfPerson(person.id, theirs)).toBe(false);
      expect(await signedIn(theirs)).toBe(true);
      expect(await s.store.webSessions.removeOfPerson(person.id, second)).toBe(true);
      expect(await s.store.webSessions.removeOfPerson(person.id, second)).toBe(false);
      expect(await signedIn(second)).toBe(false);
      // The expired one counts too: it is a row of theirs.
      expect(await s.store.webSessions.removeOthers(person.id, first)).toBe(2);
      expect([await signedIn(first), await signedIn(third), await signedIn(theirs)]).toEqual([true, false, true]);
    });

    it("changes the password and ends every other session of the person's at once", async () => {
      const person = await s.person({ email: 'change@example.com', passwordHash: 'scrypt$old' });
      const other = await s.person();
      const [mine, elsewhere, theirs] = [await signIn(person), await signIn(person), await signIn(other)];
      expect(await s.store.accounts.changePassword(person.id, 'scrypt$new', mine)).toEqual({ sessionsEnded: 1 });
      expect((await s.store.people.withPasswordHash('change@example.com'))!.passwordHash).toBe('scrypt$new');
      expect([await signedIn(mine), await signedIn(elsewhere), await signedIn(theirs)]).toEqual([true, false, true]);
    });

    it('refuses to delete the only owner of a team with other members or links, changing nothing', async () => {
      const owner = await s.person({ email: 'owner@example.com' });
      const session = await signIn(owner);
      const shared = await s.team(owner, 'Shared');
      const member = await s.person();
      expect(await s.store.teams.addMember(shared.id, member.id, T0)).toBe('added');
      expect(await s.store.accounts.remove(owner.id)).toEqual({ kind: 'last_owner', team: shared, otherMembers: 1, links: 0 });

      expect(await s.store.teams.removeMember(shared.id, member.id, { personId: owner.id })).toBe('removed');
      await s.link(shared);
      await s.link(shared);
      expect(await s.store.accounts.remove(owner.id)).toEqual({ kind: 'last_owner', team: shared, otherMembers: 0, links: 2 });
      expect(await s.store.people.get(owner.id)).toEqual(owner);
      expect(await signedIn(session)).toBe(true);
      expect(await s.store.teams.isMember(shared.id, owner.id)).toBe(true);
    });

    it('deletes the person with their sessions, tokens, grants and memberships, and their empty teams of their own', async () => {
      const person = await s.person({ email: 'leaving@example.com' });
      const owner = await s.person();
      const session = await signIn(person);
      const alone = await s.team(person, 'Alone');
      const coOwned = await s.team(owner, 'Co-owned');
      await s.store.teams.addMember(coOwned.id, person.id, T0);
      await s.store.teams.makeOwner(coOwned.id, person.id, { personId: owner.id });
      const joined = await s.team(owner, 'Joined');
      await s.store.teams.addMember(joined.id, person.id, T0);
      await s.link(coOwned);
      const tokens = [await token(person, coOwned.id), await token(person, alone.id)];
      const access = await grantOf(person);

      expect(await s.store.accounts.remove(person.id)).toEqual({ kind: 'removed', teamsDeleted: 1 });
      expect(await s.store.people.get(person.id)).toBeNull();
      expect(await signedIn(session)).toBe(false);
      expect(await Promise.all(tokens.map((t) => s.store.tokens.grant(t.id)))).toEqual([null, null]);
      expect(await s.store.oauth.token(access)).toBeNull();
      expect(await s.store.oauth.grants(person.id)).toEqual([]);
      expect(await s.store.teams.get(alone.id)).toBeNull();
      expect((await s.store.teams.members(coOwned.id)).map((m) => [m.personId, m.role])).toEqual([[owner.id, 'owner']]);
      expect((await s.store.teams.members(joined.id)).map((m) => m.personId)).toEqual([owner.id]);
      expect(await s.store.teams.linkCount(coOwned.id)).toBe(1);
      // The email is free again.
      expect((await s.person({ email: 'leaving@example.com' })).id).not.toBe(person.id);
      expect(await s.store.accounts.remove(person.id)).toEqual({ kind: 'no_person' });
    });
  });
}
