import { hashPassword } from '../auth/password.js';
import { newPasswordLink } from '../auth/password-link.js';
import { newSignupLink } from '../auth/signup-link.js';
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

/** resetPerson's answer: the person, their fresh link, and how many web sessions ended. */
export type ResetPerson = Person & SetPasswordLink & { sessionsEnded: number };

/** invitePerson's answer: where the invited email signs up, until when, and the sign-up mode it was made under. */
export interface SignupInvitation {
  email: string;
  signupUrl: string;
  signupExpiresAt: string;
  signup: SignupMode;
}

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
 * (revokeToken ends those).
 */
export async function resetPerson(store: Store, email: string, publicUrl: string, now: Date): Promise<ResetPerson> {
  const person = await personByEmail(store, email);
  const { link, sessionsEnded } = await issueLink(store, publicUrl, person.id, true, now);
  return { ...person, ...link, sessionsEnded };
}

/**
 * A sign-up link for an email (`person invite`): whoever follows it makes the account of that email with a password
 * of their choosing, also while sign-up is `invite` only. One use, for a week; a new link for the email replaces
 * the old. Refused while sign-up is `closed` (the link would not work: `person add` makes the account instead) and
 * for an email that has an account.
 */
export async function invitePerson(store: Store, rawEmail: string, publicUrl: string, now: Date): Promise<SignupInvitation> {
  const email = normalizeEmail(rawEmail);
  const { signup } = await store.settings.serviceSettings();
  if (signup === 'closed') {
    throw apiError.conflict('sign-up is closed, so a sign-up link would not work: make the account with person add, or first run settings set --signup invite');
  }
  if (await store.people.findByEmail(email)) throw emailTaken(email);
  const { url, tokenHash, expiresAt } = newSignupLink(publicUrl, now);
  await store.signupInvitations.issue({ email, tokenHash, expiresAt }, now);
  return { email, signupUrl: url, signupExpiresAt: expiresAt.toISOString(), signup };
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

async function issueLink(store: Store, publicUrl: string, personId: string, reset: boolean, now: Date) {
  const { url, tokenHash, expiresAt } = newPasswordLink(publicUrl, now);
  const { sessionsEnded } = await store.passwordLinks.issue({ personId, tokenHash, expiresAt, reset }, now);
  return { link: { setPasswordUrl: url, setPasswordExpiresAt: expiresAt.toISOString() }, sessionsEnded };
}
