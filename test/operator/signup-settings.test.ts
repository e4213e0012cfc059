import { describe, expect, it } from 'vitest';
import { sha256 } from '../../src/auth/secrets.js';
import { CLOSED_WORDS, INVITE_WORDS, signupVerdict } from '../../src/auth/signup-rule.js';
import { invitePerson } from '../../src/operator/people.js';
import { setSettings, showSettings } from '../../src/operator/service-settings.js';
import { at, DAY_MS, T0 } from '../store/contract/fixtures.js';
import { operatorStore, refusal } from './store.js';

const URL_BASE = 'https://links.example.com';

describe('operator: who may sign up', () => {
  const db = operatorStore();

  it('sets the sign-up mode, refusing a value it does not take and a call that sets nothing', async () => {
    expect((await showSettings(db.store)).signup).toBe('open');
    expect((await setSettings(db.store, { signup: ' invite ' })).signup).toBe('invite');
    expect(await refusal(setSettings(db.store, { signup: 'Closed' }))).toEqual({
      status: 400,
      code: 'bad_request',
      message: '--signup must be one of open, invite, closed: "Closed"',
      field: 'signup',
    });
    expect(await refusal(setSettings(db.store, {}))).toMatchObject({ status: 400, code: 'bad_request', field: null });
    expect((await showSettings(db.store)).signup).toBe('invite');
  });

  it('person invite: a one-use link for the email, stored as the hash of its token only', async () => {
    await setSettings(db.store, { signup: 'invite' });
    const invited = await invitePerson(db.store, ' New@Example.com ', URL_BASE, T0);
    expect(invited).toEqual({
      email: 'new@example.com',
      signupUrl: expect.stringMatching(/^https:\/\/links\.example\.com\/signup\?invitation=[A-Za-z0-9_-]{43}$/),
      signupExpiresAt: at(7 * DAY_MS).toISOString(),
      signup: 'invite',
    });
    const token = new URL(invited.signupUrl).searchParams.get('invitation')!;
    expect(await db.store.signupInvitations.find(sha256(token), T0)).toEqual({ kind: 'valid', email: 'new@example.com' });
    expect(await signupVerdict(db.store, 'invite', 'new@example.com', token, T0)).toEqual({ allowed: true, spends: sha256(token) });
  });

  it('person invite refuses while sign-up is closed, and an email that has an account', async () => {
    await setSettings(db.store, { signup: 'closed' });
    expect(await refusal(invitePerson(db.store, 'new@example.com', URL_BASE, T0))).toEqual({
      status: 409,
      code: 'conflict',
      message: 'sign-up is closed, so a sign-up link would not work: make the account with person add, or first run settings set --signup invite',
      field: null,
    });
    await setSettings(db.store, { signup: 'open' });
    const person = await db.person({ email: 'taken@example.com' });
    expect(await refusal(invitePerson(db.store, person.email, URL_BASE, T0))).toMatchObject({ status: 409, code: 'conflict', field: 'email' });
    expect(await refusal(invitePerson(db.store, 'not an email', URL_BASE, T0))).toMatchObject({ status: 400, code: 'bad_request', field: 'email' });
  });

  it('lets anyone sign up when open, no one when closed, and only the invited when invite', async () => {
    const owner = await db.person();
    const team = await db.team(owner);
    expect(await db.store.invitations.invite(team.id, 'asked@example.com', owner.id, T0)).toBe('invited');
    expect(await signupVerdict(db.store, 'open', 'anyone@example.com', '', T0)).toEqual({ allowed: true, spends: null });
    expect(await signupVerdict(db.store, 'closed', 'asked@example.com', '', T0)).toEqual({ allowed: false, reason: CLOSED_WORDS });
    expect(await signupVerdict(db.store, 'invite', 'asked@example.com', '', T0)).toEqual({ allowed: true, spends: null });
    expect(await signupVerdict(db.store, 'invite', 'anyone@example.com', '', T0)).toEqual({ allowed: false, reason: `No team invited this email. ${INVITE_WORDS}` });
    // A team invitation stands a week.
    expect((await signupVerdict(db.store, 'invite', 'asked@example.com', '', at(7 * DAY_MS))).allowed).toBe(false);
  });
});
