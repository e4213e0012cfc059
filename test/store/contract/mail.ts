import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { MailMessage } from '../../../src/store/ports.js';
import { at, HOUR_MS, MINUTE, storeUnderTest, T0, type OpenStore } from './fixtures.js';

const message = (to: string): MailMessage => ({ to, subject: `Hello ${to}`, text: `text for ${to}`, html: `<p>html for ${to}</p>` });
const hash = () => randomBytes(32);

/** Email: the outbox the senders claim messages from, and email changes waiting for their link. */
export function mail(open: OpenStore): void {
  describe('mail', () => {
    const s = storeUnderTest(open);

    describe('the outbox', () => {
      const claim = (holder: string, now = T0, limit = 10) => s.store.mailOutbox.claim(holder, limit, at(now.getTime() - T0.getTime() + 5 * MINUTE), now);

      it('hands a queued message to one claim only, oldest first, counting the attempt', async () => {
        await s.store.mailOutbox.enqueue(message('a@example.com'), T0);
        await s.store.mailOutbox.enqueue(message('b@example.com'), at(1));
        const first = await claim('one', at(2));
        expect(first.map(({ id: _id, ...rest }) => rest)).toEqual([
          { ...message('a@example.com'), attempt: 1 },
          { ...message('b@example.com'), attempt: 1 },
        ]);
        expect(await claim('two', at(3))).toEqual([]);
        expect(await s.store.mailOutbox.counts()).toEqual({ pending: 2, sent: 0, failed: 0 });
      });

      it('claims at most the limit, and nothing queued later than now', async () => {
        for (const to of ['a', 'b', 'c']) await s.store.mailOutbox.enqueue(message(`${to}@example.com`), T0);
        await s.store.mailOutbox.enqueue(message('later@example.com'), at(HOUR_MS));
        expect((await claim('one', at(1), 2)).map((m) => m.to)).toHaveLength(2);
        expect((await claim('two', at(1), 2)).map((m) => m.to)).toHaveLength(1);
        expect(await claim('three', at(1))).toEqual([]);
      });

      it("marks a message sent only for its holder, and never hands it out again", async () => {
        await s.store.mailOutbox.enqueue(message('a@example.com'), T0);
        const [claimed] = await claim('one');
        expect(await s.store.mailOutbox.sent(claimed!.id, 'two', at(1))).toBe(false);
        expect(await s.store.mailOutbox.sent(claimed!.id, 'one', at(1))).toBe(true);
        expect(await s.store.mailOutbox.sent(claimed!.id, 'one', at(2))).toBe(false);
        expect(await claim('two', at(HOUR_MS))).toEqual([]);
        expect(await s.store.mailOutbox.counts()).toEqual({ pending: 0, sent: 1, failed: 0 });
      });

      it('hands a failed message out again from its retry time, with the next attempt number', async () => {
        await s.store.mailOutbox.enqueue(message('a@example.com'), T0);
        const [claimed] = await claim('one');
        expect(await s.store.mailOutbox.failed(claimed!.id, 'one', 'ECONNECTION', at(MINUTE), at(1))).toBe(true);
        expect(await claim('two', at(MINUTE - 1))).toEqual([]);
        const [again] = await claim('two', at(MINUTE));
        expect(again).toEqual({ ...claimed, attempt: 2 });
        expect(await s.store.mailOutbox.failed(again!.id, 'one', 'EMESSAGE', null, at(MINUTE))).toBe(false);
        expect(await s.store.mailOutbox.failed(again!.id, 'two', 'EMESSAGE', null, at(MINUTE))).toBe(true);
        expect(await claim('three', at(HOUR_MS))).toEqual([]);
        expect(await s.store.mailOutbox.counts()).toEqual({ pending: 0, sent: 0, failed: 1 });
      });

      it("hands out again a message whose holder's claim ran out (a sender that crashed)", async () => {
        await s.store.mailOutbox.enqueue(message('a@example.com'), T0);
        const [claimed] = await claim('one');
        expect(await claim('two', at(5 * MINUTE - 1))).toEqual([]);
        expect(await claim('two', at(5 * MINUTE))).toEqual([{ ...claimed, attempt: 2 }]);
        expect(await s.store.mailOutbox.sent(claimed!.id, 'one', at(5 * MINUTE))).toBe(false);
      });

      it('gives each message to one of many claims made at once', async () => {
        for (let i = 0; i < 20; i++) await s.store.mailOutbox.enqueue(message(`p${i}@example.com`), T0);
        // Claims at once may choose the same rows, and the ones that lose them come back with fewer (PostgreSQL
        // re-checks each row as it updates it): the promise is that no message is in two claims, and that claims
        // made until none is left take them all.
        const ids: string[] = [];
        for (let round = 0; round < 20 && ids.length < 20; round++) {
          const claims = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((holder) => claim(holder, at(1), 7)));
          ids.push(...claims.flat().map((m) => m.id));
        }
        expect(ids).toHaveLength(20);
        expect(new Set(ids).size).toBe(20);
      });

      it('prunes messages sent or given up before the cutoff, oldest first and at most the limit, never a pending one', async () => {
        for (const to of ['sent1', 'sent2', 'failed', 'pending', 'recent']) await s.store.mailOutbox.enqueue(message(`${to}@example.com`), T0);
        const claimed = new Map((await claim('one', at(1))).map((m) => [m.to, m.id]));
        const id = (to: string) => claimed.get(`${to}@example.com`)!;
        expect(await s.store.mailOutbox.sent(id('sent1'), 'one', at(MINUTE))).toBe(true);
        expect(await s.store.mailOutbox.sent(id('sent2'), 'one', at(2 * MINUTE))).toBe(true);
        expect(await s.store.mailOutbox.failed(id('failed'), 'one', 'EENVELOPE 550', null, at(3 * MINUTE))).toBe(true);
        expect(await s.store.mailOutbox.failed(id('pending'), 'one', 'EMESSAGE 451', at(HOUR_MS), at(3 * MINUTE))).toBe(true);
        expect(await s.store.mailOutbox.sent(id('recent'), 'one', at(10 * MINUTE))).toBe(true);

        expect(await s.store.mailOutbox.prune(at(10 * MINUTE), 2)).toBe(2);
        expect(await s.store.mailOutbox.counts()).toEqual({ pending: 1, sent: 1, failed: 1 });
        expect(await s.store.mailOutbox.prune(at(10 * MINUTE), 2)).toBe(1);
        expect(await s.store.mailOutbox.counts()).toEqual({ pending: 1, sent: 1, failed: 0 });
        expect(await s.store.mailOutbox.prune(at(10 * MINUTE), 2)).toBe(0);
        // The pending message is still handed out when due.
        expect((await claim('two', at(HOUR_MS))).map((m) => m.to)).toEqual(['pending@example.com']);
      });
    });

    describe('email changes', () => {
      const issue = (personId: string, email: string, tokenHash: Buffer, expiresAt = at(HOUR_MS)) =>
        s.store.emailChanges.issue({ personId, email, tokenHash, expiresAt }, T0);

      it('changes the email once, by a link that works until it expires', async () => {
        const person = await s.person({ email: 'old@example.com' });
        const token = hash();
        await issue(person.id, 'new@example.com', token);
        expect(await s.store.emailChanges.confirm(token, at(MINUTE))).toEqual({ kind: 'changed', person: { ...person, email: 'new@example.com' } });
        expect(await s.store.people.findByEmail('new@example.com')).toEqual({ ...person, email: 'new@example.com' });
        expect(await s.store.people.findByEmail('old@example.com')).toBeNull();
        expect(await s.store.emailChanges.confirm(token, at(MINUTE))).toEqual({ kind: 'used' });
        const late = hash();
        await issue(person.id, 'later@example.com', late);
        expect(await s.store.emailChanges.confirm(late, at(HOUR_MS))).toEqual({ kind: 'expired' });
        expect(await s.store.emailChanges.confirm(hash(), T0)).toEqual({ kind: 'unknown' });
      });

      it("is refused, changing nothing, when someone took the address meanwhile (whatever its case)", async () => {
        const person = await s.person({ email: 'me@example.com' });
        const token = hash();
        await issue(person.id, 'wanted@example.com', token);
        await s.person({ email: 'Wanted@example.com' });
        expect(await s.store.emailChanges.confirm(token, at(MINUTE))).toEqual({ kind: 'taken', email: 'wanted@example.com' });
        expect(await s.store.people.get(person.id)).toEqual(person);
      });

      it("stops the person's earlier link when a new one is issued", async () => {
        const person = await s.person();
        const [earlier, later] = [hash(), hash()];
        await issue(person.id, 'first@example.com', earlier);
        await issue(person.id, 'second@example.com', later);
        expect(await s.store.emailChanges.confirm(earlier, at(MINUTE))).toEqual({ kind: 'unknown' });
        expect(await s.store.emailChanges.confirm(later, at(MINUTE))).toMatchObject({ kind: 'changed', person: { email: 'second@example.com' } });
      });
    });
  });
}
