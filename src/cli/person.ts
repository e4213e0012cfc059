import { EmailTaken, type Person, type Store } from '../store/ports.js';
import { optional, required, type Args } from './args.js';
import { defineCommand, defineContextCommand, type CommandContext } from './command.js';
import { dataError, usageError } from './errors.js';
import { normalizeEmail, personByEmail } from './lookup.js';
import { hashPassword } from '../auth/password.js';
import { newPasswordLink, PASSWORD_LINK_HOURS } from '../auth/password-link.js';
import { MAX_PASSWORD, MIN_PASSWORD, passwordFits } from '../domain/account-rules.js';

/** Where a person sets their password: a one-time link, and when it stops working. */
export interface SetPasswordLink {
  setPasswordUrl: string;
  setPasswordExpiresAt: string;
}

/** `person add`'s answer: the person, and their set-password link when no password was given. */
export type AddedPerson = Person | (Person & SetPasswordLink);

/** `person reset`'s answer: the person, their fresh link, and how many web sessions ended. */
export type ResetPerson = Person & SetPasswordLink & { sessionsEnded: number };

/**
 * `person add --email E [--password P] [--agree-terms]`: a new person. Without a password the answer carries a
 * one-time link where they choose one; without --agree-terms their tokens answer `first_step` until they agree in
 * the app.
 */
export async function addPerson(args: Args, store: Store, context: CommandContext, now = new Date()): Promise<AddedPerson> {
  const email = normalizeEmail(required(args, 'email'));
  const password = optional(args, 'password');
  if (password !== undefined && !passwordFits(password)) {
    // Says what is wrong with the password, never what it was.
    throw usageError(`--password must be ${MIN_PASSWORD} to ${MAX_PASSWORD} characters`);
  }
  if (await store.people.findByEmail(email)) throw dataError(`a person with the email ${email} already exists`);
  const passwordHash = password === undefined ? null : await hashPassword(password);
  let person: Person;
  try {
    const agreedTerms = args.values['agree-terms'] === true;
    // Someone the operator adds is known to them: their reports count at once (see docs/behaviour.md, States).
    person = await store.people.add({ email, passwordHash, agreedTerms, addedByOperator: true }, now);
  } catch (error) {
    // Someone else (the web app's sign-up) took the email between the check and the insert.
    if (error instanceof EmailTaken) throw dataError(`a person with the email ${email} already exists`);
    throw error;
  }
  if (passwordHash !== null) return person;
  return { ...person, ...(await issueLink(store, context, person.id, false, now)).link };
}

/**
 * `person reset --email E`: a fresh set-password link for someone who forgot their password (or whose account
 * may be in other hands). Their password and earlier links stop working and their web sessions end at once;
 * their tokens stay (`token revoke` ends those).
 */
export async function resetPerson(args: Args, store: Store, context: CommandContext, now = new Date()): Promise<ResetPerson> {
  const person = await personByEmail(store, required(args, 'email'));
  const { link, sessionsEnded } = await issueLink(store, context, person.id, true, now);
  return { ...person, ...link, sessionsEnded };
}

/** `person admin`'s answer: the person as they are now, and whether the command changed them. */
export type OperatorChange = Person & { changed: boolean };

/**
 * `person admin --email E [--off]`: makes the person an operator of the web app's moderation pages (reports,
 * reviews, link states, the blocklist, the limits), or with --off no longer one. Their next page sees it.
 */
export async function setOperator(args: Args, store: Store): Promise<OperatorChange> {
  const person = await personByEmail(store, required(args, 'email'));
  const operator = args.values.off !== true;
  const changed = await store.people.setOperator(person.id, operator);
  return { ...person, operator, changed };
}

async function issueLink(store: Store, { publicUrl }: CommandContext, personId: string, reset: boolean, now: Date) {
  const { url, tokenHash, expiresAt } = newPasswordLink(publicUrl, now);
  const { sessionsEnded } = await store.passwordLinks.issue({ personId, tokenHash, expiresAt, reset }, now);
  return { link: { setPasswordUrl: url, setPasswordExpiresAt: expiresAt.toISOString() }, sessionsEnded };
}


const linkText = (link: SetPasswordLink) =>
  `they set their password at this link (one use, within ${PASSWORD_LINK_HOURS} hours, until ${link.setPasswordExpiresAt}):\n` +
  link.setPasswordUrl;

export const personAdd = defineContextCommand(
  (args, store, context) => addPerson(args, store, context),
  (person) =>
    [
      `added person ${person.id} <${person.email}>`,
      person.agreedTermsAt === null ? 'not agreed to the terms yet: their tokens work once they agree in the app' : '',
      'setPasswordUrl' in person ? linkText(person) : '',
    ]
      .filter(Boolean)
      .join('\n'),
);

export const personReset = defineContextCommand(
  (args, store, context) => resetPerson(args, store, context),
  (person) =>
    [
      `reset the password of ${person.id} <${person.email}>; ` +
        `ended ${person.sessionsEnded} web session${person.sessionsEnded === 1 ? '' : 's'}`,
      linkText(person),
    ].join('\n'),
);

export const personAdmin = defineCommand(setOperator, (person) => {
  const now = person.operator ? 'an operator' : 'not an operator';
  return person.changed ? `${person.email} is ${now} now` : `${person.email} already was ${now}; nothing changed`;
});
