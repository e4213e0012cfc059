import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { onBoth, outcome, type Side } from '../helpers/both-adapters.js';

/**
 * The PostgreSQL adapter's people, teams, tokens, clicks, settings, idempotency, web sessions, password links and
 * OAuth stores answer exactly what the SQLite adapter answers. Each scenario runs on both (fresh databases, the same
 * random bytes, so the same ids) and what it returns must be equal to the letter: thrown errors' codes included.
 */

const now = new Date('2026-11-21T12:00:00.000Z');
const later = (ms: number) => new Date(now.getTime() + ms);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const hash = (text: string) => createHash('sha256').update(text).digest();

async function same<T>(scenario: (side: Side) => Promise<T>): Promise<T> {
  const { sqlite, postgres } = await onBoth(scenario);
  expect(postgres).toStrictEqual(sqlite);
  return postgres;
}

async function person({ store }: Side, email: string, agreedTerms = true) {
  return store.people.add({ email, passwordHash: `hash of ${email}`, agreedTerms }, now);
}

describe('people', () => {
  it('adds, reads, finds by email whatever its case, and agrees to the terms once', async () => {
    const result = await same(async (side) => {
      const { people } = side.store;
      const ann = await person(side, 'ann@example.com', false);
      const bob = await people.add({ email: 'bob@example.com', passwordHash: null, agreedTerms: true, addedByOperator: true }, now);
      await people.agreeTerms(ann.id, later(HOUR));
      await people.agreeTerms(ann.id, later(2 * HOUR));
      return {
        ann,
        bob,
        get: await people.get(ann.id),
        unknown: await people.get('person_nobody'),
        byEmail: await people.findByEmail('ANN@Example.com'),
        noEmail: await people.findByEmail('carl@example.com'),
        withHash: await people.withPasswordHash('Bob@example.com'),
        withAnnHash: await people.withPasswordHash('ann@example.com'),
        noHash: await people.withPasswordHash('carl@example.com'),
        taken: await outcome(person(side, 'ann@example.com')),
        takenOtherCase: await outcome(person(side, 'Ann@Example.COM')),
      };
    });
    expect(result.get?.agreedTermsAt).toBe(later(HOUR).toISOString());
    expect(result.withHash).toEqual({ person: result.bob, passwordHash: null });
    expect(result.taken).toEqual({ threw: 'A person with the email ann@example.com already exists.' });
    expect(result.takenOtherCase).toEqual({ threw: 'A person with the email Ann@Example.COM already exists.' });
  });
});

describe('teams', () => {
  it('adds a team with its owner, pages by name then id in byte order, and keeps members', async () => {
    const result = await same(async (side) => {
      const { teams } = side.store;
      const owner = await person(side, 'owner@example.com');
      const zed = await person(side, 'Zed@example.com');
      const adam = await person(side, 'adam@example.com');
      const made = [];
      for (const name of ['beta', 'Beta', 'alpha', 'beta', 'Alpha', 'ä']) made.push(await teams.add({ name, ownerId: owner.id }, now));
      const first = made[0]!;
      const pages = [];
      let after: [string, string] | null = null;
      for (;;) {
        const page = await teams.listForPerson(owner.id, { limit: 2, after });
        if (page.length === 0) break;
        pages.push(page.map((team) => team.name));
        const last = page.at(-1)!;
        after = [last.name, last.id];
      }
      const added = [await teams.addMember(first.id, zed.id, later(1)), await teams.addMember(first.id, adam.id, later(2))];
      for (const email of ['ab@example.com', 'A_c@example.com', 'a.b@example.com']) {
        await teams.addMember(first.id, (await person(side, email)).id, now);
      }
      const again = await teams.addMember(first.id, adam.id, later(3));
      const members = await teams.members(first.id);
      const isMember = [await teams.isMember(first.id, adam.id), await teams.isMember(made[1]!.id, adam.id)];
      const removed = [await teams.removeMember(first.id, adam.id, 'operator'), await teams.removeMember(first.id, adam.id, 'operator')];
      return {
        made,
        get: await teams.get(first.id),
        unknown: await teams.get('team_nobody'),
        pages,
        all: await teams.listForPerson(owner.id, { limit: 10, after: null }),
        none: await teams.listForPerson(zed.id, { limit: 10, after: null }),
        added,
        again,
        members,
        isMember,
        removed,
        afterRemoval: await teams.isMember(first.id, adam.id),
      };
    });
    expect(result.pages.flat()).toEqual(['Alpha', 'Beta', 'alpha', 'beta', 'beta', 'ä']);
    expect(result.members.map((member) => [member.email, member.role])).toEqual([
      ['owner@example.com', 'owner'],
      ['a.b@example.com', 'member'],
      ['A_c@example.com', 'member'],
      ['ab@example.com', 'member'],
      ['adam@example.com', 'member'],
      ['Zed@example.com', 'member'],
    ]);
    expect(result.isMember).toEqual([true, false]);
    expect(result.removed).toEqual(['removed', 'not_member']);
  });

  it('leaves no team behind when its owner cannot be added', async () => {
    // Refused by the foreign key in both; the codes of that failure are each database's own.
    const result = await same(async (side) => ({
      add: await side.store.teams.add({ name: 'orphan', ownerId: 'person_nobody' }, now).then(() => 'added', () => 'refused'),
      teams: await side.count('teams'),
    }));
    expect(result).toEqual({ add: 'refused', teams: 0 });
  });

  it('takes its invitations along when it is deleted (rows, not only what the reads show)', async () => {
    const result = await same(async (side) => {
      const ann = await person(side, 'ann@example.com');
      const team = await side.store.teams.add({ name: 'Gone', ownerId: ann.id }, now);
      const kept = await side.store.teams.add({ name: 'Kept', ownerId: ann.id }, now);
      for (const id of [team.id, kept.id]) await side.store.invitations.invite(id, 'bob@example.com', ann.id, now);
      const before = await side.count('team_invitations');
      await side.store.teams.delete(team.id, { personId: ann.id });
      return { before, after: await side.count('team_invitations') };
    });
    expect(result).toEqual({ before: 2, after: 1 });
  });
});

describe('tokens', () => {
  it('adds, grants, lists newest first, revokes once and records use in batches', async () => {
    const result = await same(async (side) => {
      const { tokens, teams, people } = side.store;
      const ann = await person(side, 'ann@example.com', false);
      // Ann is a member of Bob's team, so that the operator may remove her (a team keeps its only owner).
      const bob = await person(side, 'bob@example.com');
      const team = await teams.add({ name: 'T', ownerId: bob.id }, now);
      await teams.addMember(team.id, ann.id, now);
      const secretHash = hash('secret');
      const added = [];
      // Three at one time (ties fall to the id), one later.
      for (const at of [now, now, now, later(MINUTE)]) {
        added.push(await tokens.add({ personId: ann.id, teamId: team.id, label: 'ann’s', scopes: ['getLink'], limited: true, secretHash }, at));
      }
      const open = await tokens.add({ personId: ann.id, teamId: team.id, scopes: null, limited: false, secretHash }, now);
      const grant = await tokens.grant(open.id);
      await people.agreeTerms(ann.id, now);
      await teams.removeMember(team.id, ann.id, 'operator');
      const grantLater = await tokens.grant(open.id);
      const revoked = [await tokens.revoke(added[0]!.id, later(HOUR)), await tokens.revoke(added[0]!.id, later(2 * HOUR))];
      await tokens.touch(open.id, later(MINUTE));
      await tokens.touch(open.id, later(2 * MINUTE));
      await tokens.touch(added[1]!.id, later(3 * MINUTE));
      const beforeFlush = (await tokens.listForPerson(ann.id)).map((token) => token.lastUsedAt);
      await side.flushTouches();
      return {
        added,
        grant,
        grantLater,
        unknown: await tokens.grant('tok_nobody'),
        revoked,
        beforeFlush,
        listed: await tokens.listForPerson(ann.id),
      };
    });
    expect(result.grant).toMatchObject({ scopes: null, limited: false, personAgreedTerms: false, personInTeam: true });
    expect(result.grantLater).toMatchObject({ personAgreedTerms: true, personInTeam: false });
    // Three labelled tokens live (one of the four was revoked), the unlabelled one among them.
    expect(result.listed.map((token) => token.label ?? 'none').sort()).toEqual(['ann’s', 'ann’s', 'ann’s', 'none']);
    expect(result.beforeFlush.every((at) => at === null)).toBe(true);
    expect(result.listed.map((token) => token.lastUsedAt).filter(Boolean).sort()).toEqual([
      later(2 * MINUTE).toISOString(),
      later(3 * MINUTE).toISOString(),
    ]);
  });
});

describe('clicks', () => {
  it('adds counts to existing days, drops clicks for a link deleted meanwhile, and reads a range', async () => {
    const result = await same(async (side) => {
      const { clicks, teams } = side.store;
      const ann = await person(side, 'ann@example.com');
      const team = await teams.add({ name: 'T', ownerId: ann.id }, now);
      await side.addLink('link_a', team.id, 'aaaa');
      await side.addLink('link_b', team.id, 'bbbb');
      await side.addLink('link_gone', team.id, 'gone');
      await clicks.add(new Map([['link_a', new Map([['2026-11-20', 2], ['2026-11-21', 1]])]]));
      await side.deleteLink('link_gone');
      await clicks.add(
        new Map([
          ['link_a', new Map([['2026-11-21', 3], ['2026-11-22', 1]])],
          ['link_gone', new Map([['2026-11-21', 4]])],
          ['link_b', new Map([['2026-10-31', 7]])],
        ]),
      );
      await clicks.add(new Map());
      return {
        a: await clicks.daily('link_a', '2026-11-01', '2026-11-30'),
        aPart: await clicks.daily('link_a', '2026-11-21', '2026-11-21'),
        b: await clicks.daily('link_b', '2026-11-01', '2026-11-30'),
        gone: await clicks.daily('link_gone', '2026-11-01', '2026-11-30'),
        rows: await side.count('clicks'),
      };
    });
    expect(result.a).toEqual([
      { day: '2026-11-20', clicks: 2 },
      { day: '2026-11-21', clicks: 4 },
      { day: '2026-11-22', clicks: 1 },
    ]);
    expect(result.rows).toBe(4);
  });
});

describe('settings', () => {
  it('merges limit changes, keeps a blocklist, and makes one cursor secret', async () => {
    const result = await same(async ({ store: { settings } }) => {
      const defaults = await settings.limits();
      const first = await settings.setLimits({ perHour: 7, callsPerMinute: 5 });
      const second = await settings.setLimits({ perHour: 9 });
      const blocked = [await settings.block('bad.example', now), await settings.block('bad.example', now), await settings.block('worse.example', now)];
      const listed = [...(await settings.blockedDomains())].sort();
      const unblocked = [await settings.unblock('bad.example'), await settings.unblock('bad.example')];
      const secret = await settings.cursorSecret();
      return {
        defaults,
        first,
        second,
        read: await settings.limits(),
        blocked,
        listed,
        unblocked,
        after: [...(await settings.blockedDomains())],
        secret: { length: secret.length, stable: secret.equals(await settings.cursorSecret()) },
      };
    });
    expect(result.second).toMatchObject({ perHour: 9, callsPerMinute: 5 });
    expect(result.read).toEqual(result.second);
    expect(result.after).toEqual(['worse.example']);
    expect(result.secret).toEqual({ length: 32, stable: true });
  });
});

describe('idempotency', () => {
  it('claims, refuses, replays and releases keys as SQLite does, over time', async () => {
    const result = await same(async ({ store: { idempotency } }) => {
      const key = { personId: 'person_a', operation: 'createLink', key: 'k1' };
      const claimed = await idempotency.begin(key, 'body', now);
      const steps: unknown[] = [claimed];
      steps.push(await idempotency.begin(key, 'body', later(1)));
      steps.push(await idempotency.begin(key, 'other', later(2)));
      if (claimed.kind !== 'new') return steps;
      await idempotency.finish(key, claimed.claim + 1, 500, '"wrong claim"');
      steps.push(await idempotency.begin(key, 'body', later(3)));
      await idempotency.finish(key, claimed.claim, 201, '{"ok":true}');
      await idempotency.release(key, claimed.claim);
      await idempotency.finish(key, claimed.claim, 500, '"too late"');
      steps.push(await idempotency.begin(key, 'body', later(4)));
      steps.push(await idempotency.begin(key, 'other', later(5)));
      // After a day the answer is forgotten: the key may be claimed again, for any body.
      const again = await idempotency.begin(key, 'other', later(24 * HOUR + 5));
      steps.push(again);
      // A claim released lets the next call claim it.
      if (again.kind === 'new') await idempotency.release(key, again.claim);
      const third = await idempotency.begin(key, 'body', later(24 * HOUR + 6));
      steps.push(third);
      // A claim never finished goes stale once its process stops holding it; the one who held it can no longer finish.
      if (third.kind === 'new') await idempotency.hold([{ key, claim: third.claim }], later(24 * HOUR + 4 * MINUTE + 5_000));
      steps.push(await idempotency.begin(key, 'body', later(24 * HOUR + 4 * MINUTE)));
      const takeover = await idempotency.begin(key, 'body', later(24 * HOUR + 6 * MINUTE));
      steps.push(takeover);
      if (third.kind === 'new') await idempotency.finish(key, third.claim, 200, '"stale"');
      if (takeover.kind === 'new') await idempotency.finish(key, takeover.claim, 200, '"fresh"');
      steps.push(await idempotency.begin(key, 'body', later(24 * HOUR + 7 * MINUTE)));
      return steps;
    });
    expect(result.map((step) => (step as { kind: string }).kind)).toEqual([
      'new', 'in_use', 'reused', 'in_use', 'replay', 'reused', 'new', 'new', 'in_use', 'new', 'replay',
    ]);
    expect(result.at(-1)).toEqual({ kind: 'replay', status: 200, body: '"fresh"' });
  });
});

describe('web sessions', () => {
  it('finds a session until it expires, purges expired ones on the next sign-in, and removes', async () => {
    const result = await same(async (side) => {
      const { webSessions } = side.store;
      const ann = await person(side, 'ann@example.com');
      const session = { personId: ann.id, csrfSecret: 'csrf', expiresAt: later(HOUR).toISOString() };
      await webSessions.add(hash('one'), session, now);
      await webSessions.add(hash('two'), { ...session, expiresAt: later(3 * HOUR).toISOString() }, now);
      const found = await webSessions.find(hash('one'), later(HOUR - 1));
      const expired = await webSessions.find(hash('one'), later(HOUR));
      await webSessions.add(hash('three'), session, later(2 * HOUR));
      const rowsAfterPurge = await side.count('web_sessions');
      await webSessions.remove(hash('two'));
      return { found, expired, rowsAfterPurge, removed: await webSessions.find(hash('two'), now), unknown: await webSessions.find(hash('x'), now) };
    });
    expect(result.found).toEqual({ personId: expect.any(String), csrfSecret: 'csrf', expiresAt: later(HOUR).toISOString() });
    expect(result.rowsAfterPurge).toBe(2);
  });
});

describe('password links', () => {
  it('issues one link per person, reports its state, spends it once and ends sessions', async () => {
    const result = await same(async (side) => {
      const { passwordLinks, webSessions, people } = side.store;
      const ann = await person(side, 'ann@example.com');
      const session = { personId: ann.id, csrfSecret: 'csrf', expiresAt: later(HOUR).toISOString() };
      await webSessions.add(hash('s1'), session, now);
      await webSessions.add(hash('s2'), session, now);
      const issued = await passwordLinks.issue({ personId: ann.id, tokenHash: hash('first'), expiresAt: later(HOUR), reset: false }, now);
      const reset = await passwordLinks.issue({ personId: ann.id, tokenHash: hash('second'), expiresAt: later(HOUR), reset: true }, now);
      const states = {
        replaced: await passwordLinks.find(hash('first'), now),
        valid: await passwordLinks.find(hash('second'), now),
        expired: await passwordLinks.find(hash('second'), later(HOUR)),
        unknown: await passwordLinks.find(hash('none'), now),
      };
      const passwordAfterReset = (await people.withPasswordHash('ann@example.com'))?.passwordHash;
      await webSessions.add(hash('s3'), session, now);
      const expiredUse = await passwordLinks.use(hash('second'), 'new hash', later(HOUR));
      const used = await passwordLinks.use(hash('second'), 'new hash', later(1));
      const usedAgain = await passwordLinks.use(hash('second'), 'other hash', later(2));
      return {
        issued,
        reset,
        states,
        passwordAfterReset,
        expiredUse,
        used,
        usedAgain,
        found: await passwordLinks.find(hash('second'), later(3)),
        password: (await people.withPasswordHash('ann@example.com'))?.passwordHash,
        sessions: await side.count('web_sessions'),
      };
    });
    expect(result.reset).toEqual({ sessionsEnded: 2 });
    expect(result.states.valid.kind).toBe('valid');
    expect([result.expiredUse.kind, result.used.kind, result.usedAgain.kind]).toEqual(['expired', 'valid', 'used']);
    expect(result.password).toBe('new hash');
    expect(result.sessions).toBe(0);
  });
});

describe('OAuth', () => {
  const code = (personId: string, clientId: string, name: string, scopes: string[]) => ({
    codeHash: hash(name),
    personId,
    clientId,
    scopes,
    redirectUri: 'https://app.example/cb',
    codeChallenge: 'challenge',
    resource: 'https://links.example/mcp',
    expiresAt: later(10 * MINUTE).toISOString(),
  });
  const tokens = (grantId: string, family: string, scopes: string[]) => ({
    grantId,
    family,
    scopes,
    resource: 'https://links.example/mcp',
    accessHash: hash(`${family} access`),
    accessExpiresAt: later(HOUR).toISOString(),
    refreshHash: hash(`${family} refresh`),
    refreshExpiresAt: later(30 * 24 * HOUR).toISOString(),
  });

  it('keeps clients, purges the ones no grant holds, and replaces fetched metadata', async () => {
    await same(async ({ store: { oauth } }) => {
      const registered = await oauth.addClient(
        { id: 'oc_one', secretHash: hash('s'), name: 'One', redirectUris: ['https://one.example/cb'], metadata: { client_name: 'One', n: [1] } },
        now,
      );
      const document = { id: 'https://two.example/client.json', name: null, redirectUris: ['https://two.example/cb'], metadata: {}, freshUntil: later(HOUR).toISOString() };
      const saved = await oauth.saveMetadataDocument(document, now);
      const resaved = await oauth.saveMetadataDocument({ ...document, name: 'Two', freshUntil: later(2 * HOUR).toISOString() }, later(MINUTE));
      const read = [await oauth.client('oc_one'), await oauth.client(document.id), await oauth.client('oc_none')];
      const purgedEarly = await oauth.purgeClients(now, later(HOUR));
      const purged = await oauth.purgeClients(later(1), later(2 * HOUR));
      return { registered, saved, resaved, read, purgedEarly, purged, left: await oauth.client('oc_one') };
    });
  });

  it('saves codes and tokens, spends each once, narrows a grant approved again, and revokes', async () => {
    const result = await same(async (side) => {
      const { oauth } = side.store;
      const ann = await person(side, 'ann@example.com', false);
      await oauth.addClient({ id: 'oc_one', secretHash: null, name: 'One', redirectUris: ['https://one.example/cb'], metadata: {} }, now);
      await oauth.addClient({ id: 'oc_two', secretHash: null, name: null, redirectUris: ['https://two.example/cb'], metadata: {} }, now);
      const grantId = await oauth.saveCode(code(ann.id, 'oc_one', 'c1', ['links:read', 'links:write']), now);
      const saved = await oauth.code(hash('c1'));
      const spent = [await oauth.useCode(hash('c1'), later(1)), await oauth.useCode(hash('c1'), later(2)), await oauth.useCode(hash('none'), later(2))];
      await oauth.saveTokens(tokens(grantId, 'wide', ['links:read', 'links:write']), later(3));
      await oauth.saveTokens({ ...tokens(grantId, 'narrow', ['links:read']), refreshHash: null, refreshExpiresAt: null }, later(3));
      const token = await oauth.token(hash('wide refresh'));
      const refreshed = [
        await oauth.useRefreshToken(hash('wide refresh'), later(4)),
        await oauth.useRefreshToken(hash('wide refresh'), later(5)),
        await oauth.useRefreshToken(hash('wide access'), later(5)),
      ];
      const unusedWide = await oauth.saveCode(code(ann.id, 'oc_one', 'c2', ['links:read', 'links:write']), later(6));
      const unusedNarrow = await oauth.saveCode(code(ann.id, 'oc_one', 'c3', ['links:read']), later(7));
      // Approved again with read only: the wide family and the unused wide code go, the narrow ones stay.
      const again = await oauth.saveCode(code(ann.id, 'oc_one', 'c4', ['links:read']), later(8));
      const afterNarrowing = {
        wideAccess: await oauth.token(hash('wide access')),
        narrowAccess: await oauth.token(hash('narrow access')),
        wideCode: await oauth.code(hash('c2')),
        narrowCode: await oauth.code(hash('c3')),
        spentCode: await oauth.code(hash('c1')),
      };
      const otherGrant = await oauth.saveCode(code(ann.id, 'oc_two', 'c5', []), later(9));
      await oauth.touchGrant(grantId, later(10));
      await oauth.touchGrant(grantId, later(20));
      const touched = await oauth.grants(ann.id);
      await oauth.touchGrant(grantId, later(MINUTE + 10));
      const touchedLater = await oauth.grants(ann.id);
      await oauth.revokeFamily('narrow');
      const revoked = [await oauth.revokeGrant(ann.id, otherGrant), await oauth.revokeGrant(ann.id, otherGrant), await oauth.revokeGrant('person_x', grantId)];
      return {
        grantId,
        saved,
        spent,
        token,
        refreshed,
        sameGrant: [unusedWide, unusedNarrow, again].every((id) => id === grantId),
        afterNarrowing,
        touched,
        touchedLater,
        narrowGone: await oauth.token(hash('narrow access')),
        revoked,
        grants: await oauth.grants(ann.id),
        codesLeft: await side.count('oauth_codes'),
      };
    });
    expect(result.spent).toEqual([true, false, false]);
    expect(result.refreshed).toEqual([true, false, false]);
    expect(result.sameGrant).toBe(true);
    expect(result.afterNarrowing).toMatchObject({ wideAccess: null, wideCode: null, narrowAccess: { family: 'narrow' } });
    expect(result.afterNarrowing.narrowCode).not.toBeNull();
    expect(result.touched.map((grant) => grant.clientId)).toEqual(['oc_two', 'oc_one']);
    expect(result.touched[1]!.lastUsedAt).toBe(later(10).toISOString());
    expect(result.touchedLater[1]!.lastUsedAt).toBe(later(MINUTE + 10).toISOString());
    expect(result.revoked).toEqual([true, false, false]);
  });
});
