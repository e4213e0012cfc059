import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../../src/domain/limits.js';
import { DEFAULT_SERVICE_SETTINGS } from '../../../src/domain/service-settings.js';
import { at, HOUR_MS, MINUTE, storeUnderTest, T0, type OpenStore } from './fixtures.js';

const hash = () => randomBytes(32);

/** Who may sign up: the sign-up mode among the settings, and the operator's sign-up links. */
export function signup(open: OpenStore): void {
  describe('sign-up', () => {
    const s = storeUnderTest(open);

    describe('service settings', () => {
      it('are open by default, and keep what the operator set apart from the limits', async () => {
        expect(await s.store.settings.serviceSettings()).toEqual({ ...DEFAULT_SERVICE_SETTINGS, signup: 'open' });
        expect(await s.store.settings.setServiceSettings({ signup: 'invite' })).toEqual({ ...DEFAULT_SERVICE_SETTINGS, signup: 'invite' });
        expect(await s.store.settings.serviceSettings()).toEqual({ ...DEFAULT_SERVICE_SETTINGS, signup: 'invite' });
        await s.store.settings.setLimits({ perHour: 5 });
        expect(await s.store.settings.setServiceSettings({ signup: 'closed' })).toEqual({ ...DEFAULT_SERVICE_SETTINGS, signup: 'closed' });
        expect(await s.store.settings.limits()).toEqual({ ...DEFAULT_LIMITS, perHour: 5 });
        expect(await s.store.settings.serviceSettings()).toEqual({ ...DEFAULT_SERVICE_SETTINGS, signup: 'closed' });
      });

      it('keep the sign-up mode when the store is opened again', async (ctx) => {
        if (!s.canReopen) ctx.skip();
        await s.store.settings.setServiceSettings({ signup: 'closed' });
        const store = await s.reopen();
        expect(await store.settings.serviceSettings()).toEqual({ ...DEFAULT_SERVICE_SETTINGS, signup: 'closed' });
      });
    });

    describe('sign-up links', () => {
      const issue = (email: string, tokenHash: Buffer, expiresAt = at(HOUR_MS)) =>
        s.store.signupInvitations.issue({ email, tokenHash, expiresAt }, T0);

      it('finds a standing link without spending it, then spends it once', async () => {
        const token = hash();
        await issue('new@example.com', token);
        expect(await s.store.signupInvitations.find(token, at(MINUTE))).toEqual({ kind: 'valid', email: 'new@example.com' });
        expect(await s.store.signupInvitations.find(token, at(MINUTE))).toEqual({ kind: 'valid', email: 'new@example.com' });
        expect(await s.store.signupInvitations.spend(token, at(MINUTE))).toBe(true);
        expect(await s.store.signupInvitations.find(token, at(2 * MINUTE))).toEqual({ kind: 'used' });
        expect(await s.store.signupInvitations.spend(token, at(2 * MINUTE))).toBe(false);
      });

      it('stops working when it expires, and knows no token it never issued', async () => {
        const token = hash();
        await issue('late@example.com', token);
        expect(await s.store.signupInvitations.find(token, at(HOUR_MS))).toEqual({ kind: 'expired' });
        expect(await s.store.signupInvitations.spend(token, at(HOUR_MS))).toBe(false);
        expect(await s.store.signupInvitations.find(hash(), T0)).toEqual({ kind: 'unknown' });
        expect(await s.store.signupInvitations.spend(hash(), T0)).toBe(false);
      });

      it("stops the email's earlier link when a new one is issued, not other emails'", async () => {
        const [earlier, later, others] = [hash(), hash(), hash()];
        await issue('one@example.com', earlier);
        await issue('two@example.com', others);
        await issue('one@example.com', later);
        expect(await s.store.signupInvitations.find(earlier, T0)).toEqual({ kind: 'unknown' });
        expect(await s.store.signupInvitations.find(later, T0)).toEqual({ kind: 'valid', email: 'one@example.com' });
        expect(await s.store.signupInvitations.find(others, T0)).toEqual({ kind: 'valid', email: 'two@example.com' });
      });
    });
  });
}
