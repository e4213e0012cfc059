import type { Person, Store, Team } from '../store/ports.js';
import { dataError, usageError } from './errors.js';
import { quote } from './args.js';
import { emailOrNull } from '../domain/account-rules.js';

/** An email as stored: trimmed and lowercased (the column is case-insensitive, so case carries no meaning). */
export function normalizeEmail(raw: string): string {
  const email = emailOrNull(raw);
  if (email === null) throw usageError(`not an email address: ${quote(raw)}`);
  return email;
}

/** The person with this email, or a one-line error naming it. */
export async function personByEmail(store: Store, raw: string): Promise<Person> {
  const email = normalizeEmail(raw);
  const person = await store.people.findByEmail(email);
  if (!person) throw dataError(`no person has the email ${email}`);
  return person;
}

/** The team with this id, or a one-line error naming it. */
export async function teamById(store: Store, raw: string): Promise<Team> {
  const id = raw.trim();
  const team = id === '' ? null : await store.teams.get(id);
  if (!team) throw dataError(`no team has the id ${quote(raw)}`);
  return team;
}
