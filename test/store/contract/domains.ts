import { describe, expect, it } from 'vitest';
import type { Store, TeamDomain } from '../../../src/store/ports.js';
import { at, DAY_MS, MINUTE, storeUnderTest, T0, type OpenStore } from './fixtures.js';

/** Each domain's name and state, by name. */
const sortedStates = (domains: TeamDomain[]) => domains.map((d) => [d.domain, d.state]).sort(([a], [b]) => (a! < b! ? -1 : 1));

/** Every key told to the store's listeners since the last call (null: "anything"), in order. */
function listen(store: Store): () => Array<string[] | null> {
  const told: Array<string[] | null> = [];
  store.changes.subscribe((keys) => {
    if (keys?.length !== 0) told.push(keys);
  });
  return () => told.splice(0);
}

/**
 * Teams' own short domains (issue 25): one team a domain, the team's limit, owners only, one primary a team, the
 * standing checks keep (domain/custom-domain.ts judges it; test/domain/custom-domain.test.ts tests every turn), and
 * every change told by the domain's name.
 */
export function domains(open: OpenStore): void {
  describe('domains', () => {
    const s = storeUnderTest(open);
    const dns = (teamId: string, domain: string, token = 'token-1') => ({ teamId, domain, token, proof: 'dns' as const });

    it('adds a domain pending and due at once, finds it by name and by team, and the operator adds one verified', async () => {
      const team = await s.team();
      const pending = await s.store.domains.add(dns(team.id, 'go.acme.example'), 'operator', 5, T0);
      const expected: TeamDomain = {
        domain: 'go.acme.example',
        teamId: team.id,
        token: 'token-1',
        state: 'pending',
        proof: 'dns',
        primary: false,
        rootUrl: null,
        addedAt: T0.toISOString(),
        verifiedAt: null,
        missingSince: null,
        checkedAt: null,
        nextCheckAt: T0.toISOString(),
        problem: null,
      };
      expect(pending).toEqual(expected);
      const vouched = await s.store.domains.add({ ...dns(team.id, 'a.acme.example', 'token-2'), proof: 'operator' }, 'operator', 5, at(MINUTE));
      const verified = { ...expected, domain: 'a.acme.example', token: 'token-2', state: 'verified', proof: 'operator' };
      expect(vouched).toEqual({ ...verified, addedAt: at(MINUTE).toISOString(), verifiedAt: at(MINUTE).toISOString(), nextCheckAt: null });
      expect(await s.store.domains.get('go.acme.example')).toEqual(expected);
      expect(await s.store.domains.get('nope.example')).toBeNull();
      expect((await s.store.domains.list(team.id)).map((d) => d.domain)).toEqual(['a.acme.example', 'go.acme.example']);
      expect(await s.store.domains.list('team_unknown')).toEqual([]);
      const other = await s.team();
      await s.store.domains.add(dns(other.id, 'b.other.example'), 'operator', 5, T0);
      expect((await s.store.domains.list()).map((d) => d.domain)).toEqual(['a.acme.example', 'b.other.example', 'go.acme.example']);
    });

    it('a domain belongs to one team: taken for another team and for its own; free again once removed', async () => {
      const [acme, other] = [await s.team(), await s.team()];
      await s.store.domains.add(dns(acme.id, 'go.acme.example'), 'operator', 5, T0);
      expect(await s.store.domains.add(dns(other.id, 'go.acme.example', 'token-2'), 'operator', 5, T0)).toBe('taken');
      expect(await s.store.domains.add(dns(acme.id, 'go.acme.example', 'token-2'), 'operator', 5, T0)).toBe('taken');
      expect(await s.store.domains.get('go.acme.example')).toMatchObject({ teamId: acme.id, token: 'token-1' });
      expect(await s.store.domains.remove('go.acme.example', 'operator')).toMatchObject({ domain: 'go.acme.example', state: 'pending' });
      expect(await s.store.domains.remove('go.acme.example', 'operator')).toBe('no_domain');
      expect(await s.store.domains.add(dns(other.id, 'go.acme.example', 'token-2'), 'operator', 5, T0)).toMatchObject({ teamId: other.id, state: 'pending' });
      expect(sortedStates(await s.store.domains.directory())).toEqual([['go.acme.example', 'pending']]);
    });

    it('a removed domain is kept, removed, for the directory alone: no get, list, check, root or place in the limit', async () => {
      const team = await s.team();
      await s.store.domains.add({ ...dns(team.id, 'go.example'), proof: 'operator' }, 'operator', 1, T0);
      await s.store.domains.setRoot('go.example', 'https://acme.example/', 'operator');
      await s.store.domains.setPrimary(team.id, 'go.example', 'operator');
      await s.store.domains.remove('go.example', 'operator');
      expect(await s.store.domains.get('go.example')).toBeNull();
      expect(await s.store.domains.list()).toEqual([]);
      expect(await s.store.domains.list(team.id)).toEqual([]);
      expect(await s.store.domains.directory()).toEqual([
        expect.objectContaining({ domain: 'go.example', teamId: team.id, state: 'removed', primary: false, rootUrl: null, nextCheckAt: null }),
      ]);
      expect(await s.store.domains.recordCheck('go.example', 'token-1', 'found', at(MINUTE))).toBeNull();
      expect(await s.store.domains.setRoot('go.example', null, 'operator')).toBe('no_domain');
      expect(await s.store.domains.add(dns(team.id, 'two.example'), 'operator', 1, T0)).toMatchObject({ domain: 'two.example' });
    });

    it('a team holds at most its limit of domains (team_domains_full); a removal makes room', async () => {
      const team = await s.team();
      await s.store.domains.add(dns(team.id, 'one.example'), 'operator', 2, T0);
      await s.store.domains.add(dns(team.id, 'two.example'), 'operator', 2, T0);
      expect(await s.store.domains.add(dns(team.id, 'three.example'), 'operator', 2, T0)).toBe('team_domains_full');
      await s.store.domains.remove('one.example', 'operator');
      expect(await s.store.domains.add(dns(team.id, 'three.example'), 'operator', 2, T0)).toMatchObject({ domain: 'three.example' });
    });

    it('owners manage domains; a member is not_owner; a stranger finds no team and no domain', async () => {
      const owner = await s.person();
      const team = await s.team(owner);
      const [member, stranger] = [await s.person(), await s.person()];
      await s.store.teams.addMember(team.id, member.id, T0);
      expect(await s.store.domains.add(dns(team.id, 'm.example'), { personId: member.id }, 5, T0)).toBe('not_owner');
      expect(await s.store.domains.add(dns(team.id, 's.example'), { personId: stranger.id }, 5, T0)).toBe('no_team');
      expect(await s.store.domains.add(dns('team_unknown', 'u.example'), 'operator', 5, T0)).toBe('no_team');
      await s.store.domains.add(dns(team.id, 'o.example'), { personId: owner.id }, 5, T0);
      expect(await s.store.domains.setRoot('o.example', 'https://acme.example/', { personId: member.id })).toBe('not_owner');
      expect(await s.store.domains.setRoot('o.example', 'https://acme.example/', { personId: stranger.id })).toBe('no_domain');
      expect(await s.store.domains.setPrimary(team.id, null, { personId: member.id })).toBe('not_owner');
      expect(await s.store.domains.setPrimary(team.id, null, { personId: stranger.id })).toBe('no_team');
      expect(await s.store.domains.remove('o.example', { personId: member.id })).toBe('not_owner');
      expect(await s.store.domains.remove('o.example', { personId: stranger.id })).toBe('no_domain');
      expect(await s.store.domains.remove('unknown.example', 'operator')).toBe('no_domain');
      expect((await s.store.domains.list(team.id)).map((d) => d.domain)).toEqual(['o.example']);
      expect(await s.store.domains.remove('o.example', { personId: owner.id })).toMatchObject({ domain: 'o.example' });
      expect(await s.store.domains.list(team.id)).toEqual([]);
    });

    it('one verified domain is the primary one; another takes its place, null keeps none; pending ones cannot be', async () => {
      const [team, other] = [await s.team(), await s.team()];
      const vouched = (teamId: string, domain: string) => ({ ...dns(teamId, domain), proof: 'operator' as const });
      await s.store.domains.add(vouched(team.id, 'a.example'), 'operator', 5, T0);
      await s.store.domains.add(vouched(team.id, 'b.example'), 'operator', 5, T0);
      await s.store.domains.add(dns(team.id, 'pending.example'), 'operator', 5, T0);
      await s.store.domains.add(vouched(other.id, 'other.example'), 'operator', 5, T0);
      const primaries = async () => (await s.store.domains.list()).filter((d) => d.primary).map((d) => d.domain);
      expect(await s.store.domains.setPrimary(team.id, 'pending.example', 'operator')).toBe('not_verified');
      expect(await s.store.domains.setPrimary(team.id, 'other.example', 'operator')).toBe('no_domain');
      expect(await s.store.domains.setPrimary(team.id, 'unknown.example', 'operator')).toBe('no_domain');
      const chosen = await s.store.domains.setPrimary(team.id, 'a.example', 'operator');
      expect(Array.isArray(chosen) && chosen.map((d) => [d.domain, d.primary])).toEqual([
        ['a.example', true],
        ['b.example', false],
        ['pending.example', false],
      ]);
      await s.store.domains.setPrimary(other.id, 'other.example', 'operator');
      await s.store.domains.setPrimary(team.id, 'b.example', 'operator');
      expect(await primaries()).toEqual(['b.example', 'other.example']);
      await s.store.domains.setPrimary(team.id, null, 'operator');
      expect(await primaries()).toEqual(['other.example']);
    });

    it('keeps where the root sends visitors, and clears it with null', async () => {
      const team = await s.team();
      await s.store.domains.add(dns(team.id, 'go.example'), 'operator', 5, T0);
      expect(await s.store.domains.setRoot('go.example', 'https://acme.example/home', 'operator')).toMatchObject({ rootUrl: 'https://acme.example/home' });
      expect(await s.store.domains.get('go.example')).toMatchObject({ rootUrl: 'https://acme.example/home' });
      await s.store.domains.setRoot('go.example', null, 'operator');
      expect(await s.store.domains.get('go.example')).toMatchObject({ rootUrl: null });
      expect(await s.store.domains.setRoot('unknown.example', null, 'operator')).toBe('no_domain');
    });

    it("keeps each check's standing; a check of a token since replaced, or of a removed domain, changes nothing", async () => {
      const team = await s.team();
      await s.store.domains.add(dns(team.id, 'go.example'), 'operator', 5, T0);
      const missing = await s.store.domains.recordCheck('go.example', 'token-1', 'missing', at(MINUTE));
      expect(missing).toMatchObject({ state: 'pending', checkedAt: at(MINUTE).toISOString(), nextCheckAt: at(6 * MINUTE).toISOString() });
      expect(missing?.problem).toContain('_shortlinks.go.example');
      const found = await s.store.domains.recordCheck('go.example', 'token-1', 'found', at(2 * MINUTE));
      expect(found).toMatchObject({ state: 'verified', verifiedAt: at(2 * MINUTE).toISOString(), problem: null, nextCheckAt: at(2 * MINUTE + DAY_MS).toISOString() });
      expect(await s.store.domains.get('go.example')).toEqual(found);
      expect(await s.store.domains.recordCheck('go.example', 'token-old', 'missing', at(3 * MINUTE))).toBeNull();
      expect(await s.store.domains.recordCheck('gone.example', 'token-1', 'found', at(3 * MINUTE))).toBeNull();
      expect(await s.store.domains.get('go.example')).toEqual(found);
    });

    it('answers the domains due by a time, the longest due first, at most the limit', async () => {
      const team = await s.team();
      await s.store.domains.add(dns(team.id, 'late.example'), 'operator', 5, at(2 * MINUTE));
      await s.store.domains.add(dns(team.id, 'early.example'), 'operator', 5, at(MINUTE));
      await s.store.domains.add({ ...dns(team.id, 'vouched.example'), proof: 'operator' }, 'operator', 5, T0);
      expect((await s.store.domains.due(T0, 10)).map((d) => d.domain)).toEqual([]);
      expect((await s.store.domains.due(at(MINUTE), 10)).map((d) => d.domain)).toEqual(['early.example']);
      expect((await s.store.domains.due(at(DAY_MS), 10)).map((d) => d.domain)).toEqual(['early.example', 'late.example']);
      expect((await s.store.domains.due(at(DAY_MS), 1)).map((d) => d.domain)).toEqual(['early.example']);
    });

    it("tells every change that changes what is served by the domain's name; deleting the team deletes and tells its domains", async () => {
      const team = await s.team();
      const told = listen(s.store);
      await s.store.domains.add(dns(team.id, 'go.example'), 'operator', 5, T0);
      expect(told()).toEqual([['go.example']]);
      await s.store.domains.recordCheck('go.example', 'token-1', 'missing', at(MINUTE));
      expect(told()).toEqual([]);
      await s.store.domains.recordCheck('go.example', 'token-1', 'found', at(2 * MINUTE));
      expect(told()).toEqual([['go.example']]);
      await s.store.domains.setRoot('go.example', 'https://acme.example/', 'operator');
      await s.store.domains.setPrimary(team.id, 'go.example', 'operator');
      expect(told()).toEqual([['go.example'], ['go.example']]);
      await s.store.domains.add(dns(team.id, 'two.example'), 'operator', 5, T0);
      told();
      expect(await s.store.teams.delete(team.id, 'operator')).toEqual({ links: 0 });
      expect(told()).toEqual([['go.example', 'two.example']]);
      expect(await s.store.domains.list()).toEqual([]);
      expect(sortedStates(await s.store.domains.directory())).toEqual([
        ['go.example', 'removed'],
        ['two.example', 'removed'],
      ]);
      await s.store.domains.add(dns((await s.team()).id, 'go.example'), 'operator', 5, T0);
      expect(await s.store.domains.remove('go.example', 'operator')).toMatchObject({ domain: 'go.example' });
      expect(told()).toEqual([['go.example'], ['go.example']]);
    });

    it("removes and tells the domains of the teams an account's removal deletes", async () => {
      const person = await s.person();
      const team = await s.team(person);
      await s.store.domains.add(dns(team.id, 'go.example'), 'operator', 5, T0);
      const told = listen(s.store);
      expect(await s.store.accounts.remove(person.id)).toEqual({ kind: 'removed', teamsDeleted: 1 });
      expect(told()).toEqual([['go.example']]);
      expect(sortedStates(await s.store.domains.directory())).toEqual([['go.example', 'removed']]);
    });
  });
}
