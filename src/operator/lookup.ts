import { emailOrNull } from '../domain/account-rules.js';
import { apiError } from '../errors.js';
import type { Person, Store, Team } from '../store/ports.js';
import { quote } from './quote.js';

/**
 * An email as stored: trimmed and lowercased (the column is case-insensitive, so case carries no meaning).
 * `field` names the input it came in, for the refusal.
 */
export function normalizeEmail(raw: string, field = 'email'): string {
  const email = emailOrNull(raw);
  if (email === null) throw apiError.badRequest(`not an email address: ${quote(raw)}`, field);
  return email;
}

/** The person with this email, or a refusal naming it. */
export async function personByEmail(store: Store, raw: string, field = 'email'): Promise<Person> {
  const email = normalizeEmail(raw, field);
  const person = await store.people.findByEmail(email);
  if (!person) throw apiError.notFound(`no person has the email ${email}`, field);
  return person;
}

/** The refusal for a team id that names no team (or no longer does). */
export function noSuchTeam(raw: string) {
  return apiError.notFound(`no team has the id ${quote(raw)}`, 'team');
}

/** The refusal for a person who is not a member of the team a call names (a token for it, an owner of it). */
export function notMember(email: string, teamId: string) {
  return apiError.conflict(`${email} is not a member of team ${teamId}`, 'email');
}

/** The team with this id, or a refusal naming it. */
export async function teamById(store: Store, raw: string): Promise<Team> {
  const id = raw.trim();
  const team = id === '' ? null : await store.teams.get(id);
  if (!team) throw noSuchTeam(raw);
  return team;
}
