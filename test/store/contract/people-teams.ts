import { describe, expect, it } from 'vitest';
import { EmailTaken, type Team } from '../../../src/store/ports.js';
import { at, MINUTE, storeUnderTest, T0, type OpenStore } from './fixtures.js';

export function peopleAndTeams(open: OpenStore): void {
  describe('people and teams', () => {
    const s = storeUnderTest(open);

    describe('people', () => {
      it('adds a person and finds them by id and by email, the email as stored', async () => {
        const added = await s.person({ email: 'Ada.Lovelace@Example.com', agreedTerms: false });
        expect(added).toEqual({ id: expect.any(String), email: 'Ada.Lovelace@Example.com', agreedTermsAt: null, createdAt: T0.toISOString(), operator: false });
        expect(await s.store.people.get(added.id)).toEqual(added);
        expect(await s.store.people.findByEmail('Ada.Lovelace@Example.com')).toEqual(added);
        expect(await s.store.people.get('person_unknown')).toBeNull();
        expect(await s.store.people.findByEmail('nobody@example.com')).toBeNull();
      });

      it('records agreement to the terms when added with it', async () => {
        const added = await s.person({ agreedTerms: true }, at(MINUTE));
        expect(added.agreedTermsAt).toBe(at(MINUTE).toISOString());
        expect(await s.store.people.get(added.id)).toEqual(added);
      });

      it('refuses a second person with the same email', async () => {
        const first = await s.person({ email: 'twice@example.com' });
        await expect(s.person({ email: 'twice@example.com' }, at(MINUTE))).rejects.toBeInstanceOf(EmailTaken);
        expect(await s.store.people.findByEmail('twice@example.com')).toEqual(first);
      });

      it('gives the password hash with the person, for signing in', async () => {
        const withHash = await s.person({ email: 'hash@example.com', passwordHash: 'scrypt$abc' });
        const without = await s.person({ email: 'none@example.com', passwordHash: null });
        expect(await s.store.people.withPasswordHash('hash@example.com')).toEqual({ person: withHash, passwordHash: 'scrypt$abc' });
        expect(await s.store.people.withPasswordHash('none@example.com')).toEqual({ person: without, passwordHash: null });
        expect(await s.store.people.withPasswordHash('nobody@example.com')).toBeNull();
      });

      it('records agreement to the terms once: later calls change nothing', async () => {
        const person = await s.person({ agreedTerms: false });
        await s.store.people.agreeTerms(person.id, at(MINUTE));
        await s.store.people.agreeTerms(person.id, at(2 * MINUTE));
        expect(await s.store.people.get(person.id)).toEqual({ ...person, agreedTermsAt: at(MINUTE).toISOString() });
        const agreed = await s.person({ agreedTerms: true });
        await s.store.people.agreeTerms(agreed.id, at(MINUTE));
        expect(await s.store.people.get(agreed.id)).toEqual(agreed);
      });
    });

    describe('operators', () => {
      it('makes a person an operator and back, saying whether anything changed', async () => {
        const person = await s.person({ email: 'op@example.com', passwordHash: 'scrypt$abc' });
        expect(person.operator).toBe(false);
        expect(await s.store.people.setOperator(person.id, true)).toBe(true);
        expect(await s.store.people.setOperator(person.id, true)).toBe(false);
        const operator = { ...person, operator: true };
        expect(await s.store.people.get(person.id)).toEqual(operator);
        expect(await s.store.people.findByEmail('op@example.com')).toEqual(operator);
        expect(await s.store.people.withPasswordHash('op@example.com')).toEqual({ person: operator, passwordHash: 'scrypt$abc' });
        expect(await s.store.people.setOperator(person.id, false)).toBe(true);
        expect(await s.store.people.setOperator(person.id, false)).toBe(false);
        expect(await s.store.people.get(person.id)).toEqual(person);
      });

      it('changes no one else, and answers false for an unknown id', async () => {
        const one = await s.person({ email: 'one@example.com' });
        const other = await s.person({ email: 'other@example.com' });
        await s.store.people.setOperator(one.id, true);
        expect(await s.store.people.get(other.id)).toEqual(other);
        expect(await s.store.people.setOperator('person_unknown', true)).toBe(false);
      });
    });

    describe('teams', () => {
      it('adds a team whose owner is its first member, with the role owner', async () => {
        const owner = await s.person({ email: 'owner@example.com' });
        const team = await s.team(owner, 'Marketing', at(MINUTE));
        expect(team).toEqual({ id: expect.stringMatching(/^team_/), name: 'Marketing', createdAt: at(MINUTE).toISOString() });
        expect(await s.store.teams.get(team.id)).toEqual(team);
        expect(await s.store.teams.get('team_unknown')).toBeNull();
        expect(await s.store.teams.members(team.id)).toEqual([
          { personId: owner.id, email: 'owner@example.com', role: 'owner', addedAt: at(MINUTE).toISOString() },
        ]);
        expect(await s.store.teams.isMember(team.id, owner.id)).toBe(true);
      });

      it('adds and removes members, saying whether anything changed', async () => {
        const team = await s.team();
        const person = await s.person();
        expect(await s.store.teams.isMember(team.id, person.id)).toBe(false);
        expect(await s.store.teams.addMember(team.id, person.id, at(MINUTE))).toBe('added');
        expect(await s.store.teams.isMember(team.id, person.id)).toBe(true);
        expect(await s.store.teams.addMember(team.id, person.id, at(2 * MINUTE))).toBe('already');
        expect((await s.store.teams.members(team.id)).find((m) => m.personId === person.id)).toEqual({
          personId: person.id, email: person.email, role: 'member', addedAt: at(MINUTE).toISOString(),
        });
        expect(await s.store.teams.removeMember(team.id, person.id, { personId: person.id })).toBe('removed');
        expect(await s.store.teams.isMember(team.id, person.id)).toBe(false);
        expect(await s.store.teams.removeMember(team.id, person.id, 'operator')).toBe('not_member');
        expect((await s.store.teams.members(team.id)).map((m) => m.personId)).not.toContain(person.id);
      });

      it('lists members owners first, then by email', async () => {
        const owner = await s.person({ email: 'mike@example.com' });
        const team = await s.team(owner);
        for (const email of ['zoe@example.com', 'amy@example.com', 'nick@example.com']) {
          await s.store.teams.addMember(team.id, (await s.person({ email })).id, T0);
        }
        expect((await s.store.teams.members(team.id)).map((m) => [m.email, m.role])).toEqual([
          ['mike@example.com', 'owner'],
          ['amy@example.com', 'member'],
          ['nick@example.com', 'member'],
          ['zoe@example.com', 'member'],
        ]);
      });

      it("lists a person's teams by name, then id, in keyset pages", async () => {
        const person = await s.person();
        for (const name of ['gamma', 'beta', 'alpha', 'beta']) await s.team(person, name);
        const joined = await s.team(undefined, 'delta');
        await s.store.teams.addMember(joined.id, person.id, T0);
        await s.team(undefined, 'epsilon');
        const all = await s.store.teams.listForPerson(person.id, { limit: 100, after: null });
        expect(all.map((t) => t.name)).toEqual(['alpha', 'beta', 'beta', 'delta', 'gamma']);
        expect(new Set(all.map((t) => t.id)).size).toBe(5);
        for (const limit of [1, 2, 3]) {
          const paged: Team[] = [];
          for (let page = await s.store.teams.listForPerson(person.id, { limit, after: null }); page.length > 0; ) {
            expect(page.length).toBeLessThanOrEqual(limit);
            paged.push(...page);
            const last = page.at(-1)!;
            page = await s.store.teams.listForPerson(person.id, { limit, after: [last.name, last.id] });
          }
          expect(paged).toEqual(all);
        }
        expect(await s.store.teams.listForPerson('person_unknown', { limit: 10, after: null })).toEqual([]);
      });
    });
  });
}
