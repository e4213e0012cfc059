import type { Store, Team } from '../store/ports.js';
import { quote, required, type Args } from './args.js';
import { defineCommand } from './command.js';
import { usageError } from './errors.js';
import { personByEmail } from './lookup.js';
import { MAX_TEAM_NAME, teamNameOrNull } from '../domain/account-rules.js';

/** `team add --name N --owner E`: a new team, its owner its first member. */
export async function addTeam(args: Args, store: Store, now = new Date()): Promise<Team> {
  const raw = required(args, 'name');
  const name = teamNameOrNull(raw);
  if (name === null) {
    throw usageError(`--name must be 1 to ${MAX_TEAM_NAME} characters without control characters: ${quote(raw)}`);
  }
  const owner = await personByEmail(store, required(args, 'owner'));
  return store.teams.add({ name, ownerId: owner.id }, now);
}

export const teamAdd = defineCommand(addTeam, (team) => `added team ${team.id} ${quote(team.name)}`);
