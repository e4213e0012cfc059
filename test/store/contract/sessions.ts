import { randomBytes } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import type { Person } from '../../../src/store/ports.js';
import { at, DAY_MS, HOUR_MS, MINUTE, storeUnderTest, T0, type OpenStore } from './fixtures.js';

const hash = () => randomBytes(32);

export function sessions(open: OpenStore): void {
  describe('sessions', () => {
    const s = storeUnderTest(open);

    /** A web session of the person, until `expiresAt`; answers its id hash. */
    const signIn = async (person: Person, expiresAt = at(DAY_MS)) => {
      const idHash = hash();
      await s.store.webSessions.add(idHash, { personId: person.id, csrfSecret: `csrf-${person.id}`, expiresAt: expiresAt.toISOString() }, T0);
      return idHash;
    };
    const signedIn = async (idHash: Buffer, now = T0) => (await s.store.webSessions.find(idHash, now)) !== null;

    describe('web sessions', () => {
      it('finds a session until it expires, and not after it was removed', async () => {
        const person = await s.person();
        const idHash = await signIn(person, at(HOUR_MS));
        const session = { personId: person.id, csrfSecret: `csrf-${person.id}`, expiresAt: at(HOUR_MS).toISOString() };
        expect(await s.store.webSessions.find(idHash, T0)).toEqual(session);
        expect(await s.store.webSessions.find(Buffer.from(idHash), at(HOUR_MS - 1))).toEqual(session);
        expect(await s.store.webSessions.find(idHash, at(HOUR_MS))).toBeNull();
        expect(await s.store.webSessions.find(hash(), T0)).toBeNull();
        const other = await signIn(person);
        await s.store.webSessions.remove(other);
        expect(await signedIn(other)).toBe(false);
        await expect(s.store.webSessions.remove(hash())).resolves.toBeUndefined();
      });
    });

    describe('questions put to MCP 2025-11-25 sessions', () => {
      const session = hash();
      const question = (questionId: string, personId = 'person-1', expiresAt = at(10 * MINUTE), sessionHash = session) =>
        ({ sessionHash, questionId, personId, expiresAt });

      it("records a person's open questions up to the cap, whatever the session, not counting expired ones", async () => {
        const q = s.store.mcpSessions;
        expect(await q.ask(question('q1'), 2, T0)).toBe(true);
        expect(await q.ask(question('q2', 'person-1', at(MINUTE), hash()), 2, T0)).toBe(true);
        expect(await q.ask(question('q3'), 2, T0)).toBe(false);
        expect(await q.ask(question('q4', 'person-2'), 2, T0)).toBe(true);
        // q2 expired: it counts no more, and the question refused at the cap was never recorded.
        expect(await q.ask(question('q3'), 2, at(MINUTE))).toBe(true);
        expect(await q.answer(session, 'q3', '{"a":3}', at(MINUTE))).toBe(true);
        expect(await q.ask(question('q5'), 2, at(MINUTE))).toBe(false);
      });

      it('fills in only the answer of a question open in its session, once, and gives it once', async () => {
        const q = s.store.mcpSessions;
        await q.ask(question('q1'), 5, T0);
        await q.ask(question('q2'), 5, T0);
        expect(await q.answer(session, 'never-asked', '{}', T0)).toBe(false);
        expect(await q.answer(hash(), 'q1', '{}', T0)).toBe(false);
        expect(await q.answer(session, 'q1', '{"first":true}', T0)).toBe(true);
        expect(await q.answer(session, 'q1', '{"second":true}', T0)).toBe(false);
        expect(await q.answer(session, 'q2', '{}', at(10 * MINUTE))).toBe(false);
        expect(await q.takeAnswers(['q1', 'q2', 'never-asked'])).toEqual([{ sessionHash: session, questionId: 'q1', answer: '{"first":true}' }]);
        expect(await q.takeAnswers(['q1', 'q2'])).toEqual([]);
        expect(await q.answer(session, 'q1', '{"again":true}', T0)).toBe(false);
        expect(await q.takeAnswers([])).toEqual([]);
      });

      it('refuses an answer to a withdrawn question, and forgets one answered before it was withdrawn', async () => {
        const q = s.store.mcpSessions;
        await q.ask(question('q1'), 1, T0);
        await q.withdraw(session, 'q1');
        expect(await q.answer(session, 'q1', '{}', T0)).toBe(false);
        await q.ask(question('q2'), 1, T0);
        await q.answer(session, 'q2', '{}', T0);
        await q.withdraw(session, 'q2');
        expect(await q.takeAnswers(['q2'])).toEqual([]);
        expect(await q.ask(question('q3'), 1, T0)).toBe(true);
      });

      it('tells every watch when an answer is filled in, and a stopped one no more', async () => {
        const q = s.store.mcpSessions;
        const told = [vi.fn(), vi.fn()];
        const stop = told.map((listener) => q.watchAnswers(listener));
        await q.ask(question('q1'), 5, T0);
        await q.ask(question('q2'), 5, T0);
        await q.answer(session, 'q1', '{}', T0);
        await vi.waitFor(() => expect(told[0]).toHaveBeenCalled());
        await vi.waitFor(() => expect(told[1]).toHaveBeenCalled());
        stop[1]!();
        told[1]!.mockClear();
        const before = told[0]!.mock.calls.length;
        await q.answer(session, 'q2', '{}', T0);
        await vi.waitFor(() => expect(told[0]!.mock.calls.length).toBeGreaterThan(before));
        expect(told[1]).not.toHaveBeenCalled();
        stop[0]!();
      });
    });

    describe('set-password links', () => {
      it('finds a working link without spending it, then spends it once: password set, sessions ended', async () => {
        const person = await s.person({ email: 'pw@example.com', passwordHash: null });
        const session = await signIn(person);
        const token = hash();
        const issued = await s.store.passwordLinks.issue({ personId: person.id, tokenHash: token, expiresAt: at(HOUR_MS), reset: false }, T0);
        expect(issued).toEqual({ sessionsEnded: 0 });
        expect(await signedIn(session)).toBe(true);
        expect(await s.store.passwordLinks.find(token, at(MINUTE))).toEqual({ kind: 'valid', person });
        expect(await s.store.passwordLinks.find(token, at(MINUTE))).toEqual({ kind: 'valid', person });
        expect(await s.store.passwordLinks.use(token, 'scrypt$new', at(MINUTE))).toEqual({ kind: 'valid', person });
        expect(await s.store.people.withPasswordHash('pw@example.com')).toEqual({ person, passwordHash: 'scrypt$new' });
        expect(await signedIn(session, at(MINUTE))).toBe(false);
        expect(await s.store.passwordLinks.find(token, at(2 * MINUTE))).toEqual({ kind: 'used' });
        expect(await s.store.passwordLinks.use(token, 'scrypt$again', at(2 * MINUTE))).toEqual({ kind: 'used' });
        expect((await s.store.people.withPasswordHash('pw@example.com'))!.passwordHash).toBe('scrypt$new');
      });

      it('answers expired from expiresAt on and unknown for a token never issued, changing nothing', async () => {
        const person = await s.person({ email: 'late@example.com', passwordHash: 'scrypt$old' });
        const token = hash();
        await s.store.passwordLinks.issue({ personId: person.id, tokenHash: token, expiresAt: at(HOUR_MS), reset: false }, T0);
        expect(await s.store.passwordLinks.find(token, at(HOUR_MS))).toEqual({ kind: 'expired' });
        expect(await s.store.passwordLinks.use(token, 'scrypt$new', at(HOUR_MS))).toEqual({ kind: 'expired' });
        expect(await s.store.passwordLinks.find(hash(), T0)).toEqual({ kind: 'unknown' });
        expect(await s.store.passwordLinks.use(hash(), 'scrypt$new', T0)).toEqual({ kind: 'unknown' });
        expect((await s.store.people.withPasswordHash('late@example.com'))!.passwordHash).toBe('scrypt$old');
      });

      it("stops the person's earlier links when a new one is issued, not other people's", async () => {
        const [person, other] = [await s.person(), await s.person()];
        const [earlier, later, others] = [hash(), hash(), hash()];
        const issue = (personId: string, tokenHash: Buffer) =>
          s.store.passwordLinks.issue({ personId, tokenHash, expiresAt: at(HOUR_MS), reset: false }, T0);
        await issue(person.id, earlier);
        await issue(other.id, others);
        await issue(person.id, later);
        expect((await s.store.passwordLinks.find(earlier, T0)).kind).not.toBe('valid');
        expect((await s.store.passwordLinks.use(earlier, 'scrypt$x', T0)).kind).not.toBe('valid');
        expect(await s.store.passwordLinks.find(later, T0)).toEqual({ kind: 'valid', person });
        expect(await s.store.passwordLinks.find(others, T0)).toEqual({ kind: 'valid', person: other });
      });

      it("a reset ends the person's password and web sessions at once, and says how many sessions", async () => {
        const person = await s.person({ email: 'reset@example.com', passwordHash: 'scrypt$old' });
        const other = await s.person();
        const sessionsOf = [await signIn(person), await signIn(person)];
        const theirs = await signIn(other);
        const reset = { personId: person.id, tokenHash: hash(), expiresAt: at(HOUR_MS), reset: true };
        expect(await s.store.passwordLinks.issue(reset, T0)).toEqual({ sessionsEnded: 2 });
        expect(await s.store.people.withPasswordHash('reset@example.com')).toEqual({ person, passwordHash: null });
        expect(await Promise.all(sessionsOf.map((id) => signedIn(id)))).toEqual([false, false]);
        expect(await signedIn(theirs)).toBe(true);
        expect(await s.store.passwordLinks.find(reset.tokenHash, T0)).toEqual({ kind: 'valid', person });
      });
    });
  });
}
