import type { Person, Store } from '../store/ports.js';
import { optional, required, type Args } from './args.js';
import { defineCommand } from './command.js';
import { dataError, usageError } from './errors.js';
import { normalizeEmail } from './lookup.js';
import { hashPassword } from '../auth/password.js';
import { MAX_PASSWORD, MIN_PASSWORD, passwordFits } from '../domain/account-rules.js';

/**
 * `person add --email E [--password P] [--agree-terms]`: a new person. Without a password they sign in by other
 * means (or set one later); without --agree-terms their tokens answer `first_step` until they agree in the app.
 */
export async function addPerson(args: Args, store: Store, now = new Date()): Promise<Person> {
  const email = normalizeEmail(required(args, 'email'));
  const password = optional(args, 'password');
  if (password !== undefined && !passwordFits(password)) {
    // Says what is wrong with the password, never what it was.
    throw usageError(`--password must be ${MIN_PASSWORD} to ${MAX_PASSWORD} characters`);
  }
  if (await store.people.findByEmail(email)) throw dataError(`a person with the email ${email} already exists`);
  const passwordHash = password === undefined ? null : await hashPassword(password);
  try {
    return await store.people.add({ email, passwordHash, agreedTerms: args.values['agree-terms'] === true }, now);
  } catch (error) {
    // Someone else (the web app's sign-up) took the email between the check and the insert.
    if (isUniqueViolation(error)) throw dataError(`a person with the email ${email} already exists`);
    throw error;
  }
}

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'SQLITE_CONSTRAINT_UNIQUE';
}

export const personAdd = defineCommand(addPerson, (person) =>
  [
    `added person ${person.id} <${person.email}>`,
    person.agreedTermsAt === null ? 'not agreed to the terms yet: their tokens work once they agree in the app' : '',
  ]
    .filter(Boolean)
    .join('\n'),
);
