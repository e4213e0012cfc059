import { quote } from '../operator/quote.js';
import { addTeam } from '../operator/teams.js';
import { required } from './args.js';
import { defineCommand } from './command.js';

/** `team add --name N --owner E`: a new team, its owner its first member. */
export const teamAdd = defineCommand(
  (args, store) => addTeam(store, { name: required(args, 'name'), ownerEmail: required(args, 'owner') }, new Date()),
  (team) => `added team ${team.id} ${quote(team.name)}`,
);
