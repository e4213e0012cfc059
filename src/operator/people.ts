import { hashPassword } from '../support/password.js';
import { newPasswordLink } from '../auth/password-link.js';
import { newSignupLink } from '../auth/signup-link.js';
import { passwordResetMessage } from '../mail/messages/password-reset.js';
import { signupInvitationMessage } from '../mail/messages/signup-invitation.js';
import { MAX_PASSWORD, MIN_PASSWORD, passwordFits } from '../domain/account-rules.js';
import { apiError } from '../errors.js';
import type { SignupMode } from '../domain/service-settings.js';
import { EmailTaken, type Person, type Store } from '../store/ports.js';
import { normalizeEmail, personByEmail } from './lookup.js';

/** Where a person sets their password: a one-time link, and when it stops working. */
export interface SetPasswordLink {
  setPasswordUrl: string;
  setPasswordExpiresAt: string;
}

/** Someone an operator adds: without a password they get a set-password link; without agreeing, a first step. */
export interface NewPerson {
  email: string;
  password?: string | undefined;
  agreedTerms: boolean;
}

/** addPerson's answer: the person, and their set-password link when no password was given. */
export type AddedPerson = Person | (Person & SetPasswordLink);

/**
 * Where a one-time link went while mail is on (SMTP_URL): queued to its person's address, and not handed to the
 * operator, so that only the mailbox's owner holds it.
 */
export interface Mailed {
  mailedTo: string;
}

/** resetPerson's answer: the person, their fresh link (or where it was mailed), and how many web sessions ended. */
export type ResetPerson = Person & { setPasswordExpiresAt: string; sessionsEnded: number } & ({ setPasswordUrl: string } | Mailed);

/**
 * invitePerson's answer: where the invited email signs up (or that the link was mailed there), until when, and the
 * sign-up mode it was made under.
 */
export type SignupInvitation = { email: string; signupExpiresAt: string; signup: SignupMode } & ({ signupUrl: string } | Mailed);

/** setOperator's answer: the person as they are now, and whether the call changed them. */
export type OperatorChange = Person & { changed: boolean };

const emailTaken = (email: string) => apiError.conflict(`a person with the email ${email} already exists`, 'email');

/**
 * A new person. Without a password the answer carries a one-time link (at `publicUrl`) where they choose one;
 * without agreeing to the terms their tokens answer `first_step` until they agree in the app.
 */
export async function addPerson(store: Store, input: NewPerson, publicUrl: string, now: Date): Promise<AddedPerson> {
  const email = normalizeEmail(input.email);
  const { password } = input;
  if (password !== undefined && !passwordFits(password)) {
    // Says what is wrong with the password, never what it was.
    throw apiError.badRequest(`--password must be ${MIN_PASSWORD} to ${MAX_PASSWORD} characters`, 'password');
  }
  if (await store.people.findByEmail(email)) throw emailTaken(email);
  const passwordHash = password === undefined ? null : await hashPassword(password);
  let person: Person;
  try {
    // Someone the operator adds is known to them: their reports count at once (see docs/behaviour.md, States).
    person = await store.people.add({ email, passwordHash, agreedTerms: input.agreedTerms, addedByOperator: true }, now);
  } catch (error) {
    // Someone else (the web app's sign-up) took the email between the check and the insert.
    if (error instanceof EmailTaken) throw emailTaken(email);
    throw error;
  }
  if (passwordHash !== null) return person;
  return { ...person, ...(await issueLink(store, publicUrl, person.id, false, now)).link };
}

/**
 * A fresh set-password link for someone who forgot their password (or whose account may be in other hands).
 * Their password and earlier links stop working and their web sessions end at once; their tokens stay
 * (revokeToken ends those). With `mail`, the link is queued to their address instead of answered.
 */
export async function resetPerson(store: Store, email: string, publicUrl: string, now: Date, mail = false): Promise<ResetPerson> {
  const person = await personByEmail(store, email);
  if (!mail) {
    const { link, sessionsEnded } = await issueLink(store, publicUrl, person.id, true, now);
    return { ...person, ...link, sessionsEnded };
  }
  const { link, sessionsEnded } = await mailPasswordLink(store, person, publicUrl, now, true);
  return { ...person, setPasswordExpiresAt: link.setPasswordExpiresAt, sessionsEnded, mailedTo: person.email };
}

/**
 * A sign-up link for an email (`person invite`): whoever follows it makes the account of that email with a password
 * of their choosing, also while sign-up is `invite` only. One use, for a week; a new link for the email replaces
 * the old. Refused while sign-up is `closed` (the link would not work: `person add` makes the account instead) and
 * for an email that has an account. With `mail`, the link is queued to the email instead of answered.
 */
export async function invitePerson(store: Store, rawEmail: string, publicUrl: string, now: Date, mail = false): Promise<SignupInvitation> {
  const email = normalizeEmail(rawEmail);
  const { signup } = await store.settings.serviceSettings();
  if (signup === 'closed') {
    throw apiError.conflict('sign-up is closed, so a sign-up link would not work: make the account with person add, or first run settings set --signup invite');
  }
  if (await store.people.findByEmail(email)) throw emailTaken(email);
  const { url, tokenHash, expiresAt } = newSignupLink(publicUrl, now);
  await store.signupInvitations.issue({ email, tokenHash, expiresAt }, now);
  const answer = { email, signupExpiresAt: expiresAt.toISOString(), signup };
  if (!mail) return { ...answer, signupUrl: url };
  await store.mailOutbox.enqueue(signupInvitationMessage(email, url, publicUrl), now);
  return { ...answer, mailedTo: email };
}

/**
 * Makes the person an operator of the web app's moderation pages (reports, reviews, link states, the blocklist,
 * the limits), or no longer one. Their next page sees it.
 */
export async function setOperator(store: Store, email: string, operator: boolean): Promise<OperatorChange> {
  const person = await personByEmail(store, email);
  const changed = await store.people.setOperator(person.id, operator);
  return { ...person, operator, changed };
}

/**
 * A set-password link queued to the person's address (mail is on): `person reset`, and "Forgot your password?" on the
 * web, which passes `reset` false so that a stranger asking for someone's link ends nothing of theirs.
 */
export async function mailPasswordLink(store: Store, person: Person, publicUrl: string, now: Date, reset: boolean) {
  const issued = await issueLink(store, publicUrl, person.id, reset, now);
  await store.mailOutbox.enqueue(passwordResetMessage(person.email, issued.link.setPasswordUrl, publicUrl), now);
  return issued;
}

async function issueLink(store: Store, publicUrl: string, personId: string, reset: boolean, now: Date) {
  const { url, tokenHash, expiresAt } = newPasswordLink(publicUrl, now);
  const { sessionsEnded } = await store.passwordLinks.issue({ personId, tokenHash, expiresAt, reset }, now);
  return { link: { setPasswordUrl: url, setPasswordExpiresAt: expiresAt.toISOString() }, sessionsEnded };
}
