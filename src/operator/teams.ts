import { MAX_TEAM_NAME, teamNameOrNull } from '../domain/account-rules.js';
import { apiError } from '../errors.js';
import type { Store, Team } from '../store/ports.js';
import { personByEmail } from './lookup.js';
import { quote } from './quote.js';

/** A team an operator makes: its name, and the email of its owner, who becomes its first member. */
export interface NewTeam {
  name: string;
  ownerEmail: string;
}

/** A new team, its owner its first member. */
export async function addTeam(store: Store, input: NewTeam, now: Date): Promise<Team> {
  const name = teamNameOrNull(input.name);
  if (name === null) {
    throw apiError.badRequest(`--name must be 1 to ${MAX_TEAM_NAME} characters without control characters: ${quote(input.name)}`, 'name');
  }
  const owner = await personByEmail(store, input.ownerEmail, 'owner');
  return store.teams.add({ name, ownerId: owner.id }, now);
}
