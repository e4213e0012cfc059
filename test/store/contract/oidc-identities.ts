import { describe, expect, it } from 'vitest';
import { at, MINUTE, storeUnderTest, T0, type OpenStore } from './fixtures.js';

/** Single sign-on: a provider's subject found again, whatever the person's email. */
export function oidcIdentities(open: OpenStore): void {
  describe('single sign-on identities', () => {
    const s = storeUnderTest(open);
    const ISSUER = 'https://id.example.com';

    it('links a subject to a person once, and finds them by it', async () => {
      const first = await s.store.people.add({ email: 'first@example.com', passwordHash: null, agreedTerms: false }, T0);
      const second = await s.store.people.add({ email: 'second@example.com', passwordHash: null, agreedTerms: false }, T0);
      expect(await s.store.oidcIdentities.personOf(ISSUER, 'sub-1')).toBeNull();
      expect(await s.store.oidcIdentities.link({ issuer: ISSUER, subject: 'sub-1', personId: first.id }, T0)).toBe(true);
      expect(await s.store.oidcIdentities.personOf(ISSUER, 'sub-1')).toBe(first.id);
      // A racing sign-in's link changes nothing: the first person keeps the subject.
      expect(await s.store.oidcIdentities.link({ issuer: ISSUER, subject: 'sub-1', personId: second.id }, at(MINUTE))).toBe(false);
      expect(await s.store.oidcIdentities.personOf(ISSUER, 'sub-1')).toBe(first.id);
    });

    it('keeps the subjects of different providers apart', async () => {
      const person = await s.store.people.add({ email: 'apart@example.com', passwordHash: null, agreedTerms: false }, T0);
      expect(await s.store.oidcIdentities.link({ issuer: ISSUER, subject: 'same', personId: person.id }, T0)).toBe(true);
      expect(await s.store.oidcIdentities.personOf('https://other.example.com', 'same')).toBeNull();
      expect(await s.store.oidcIdentities.personOf(ISSUER, 'same')).toBe(person.id);
    });
  });
}
