import type { Store } from '../store/ports.js';
import { required, type Args } from './args.js';
import { defineCommand } from './command.js';
import { personByEmail, teamById } from './lookup.js';

/** A membership after the command: team and person ids, whether they are a member, and whether this changed it. */
export interface Membership {
  team: string;
  person: string;
  member: boolean;
  /** False when there was nothing to do (already a member, or already not one): the command is safe to repeat. */
  changed: boolean;
}

/** `member add --team TEAM_ID --email E`. */
export async function addMember(args: Args, store: Store, now = new Date()): Promise<Membership> {
  const team = await teamById(store, required(args, 'team'));
  const person = await personByEmail(store, required(args, 'email'));
  const changed = await store.teams.addMember(team.id, person.id, now);
  return { team: team.id, person: person.id, member: true, changed };
}

/** `member remove --team TEAM_ID --email E`. Their tokens for the team answer `token_record_left` from now on. */
export async function removeMember(args: Args, store: Store): Promise<Membership> {
  const team = await teamById(store, required(args, 'team'));
  const person = await personByEmail(store, required(args, 'email'));
  const changed = await store.teams.removeMember(team.id, person.id);
  return { team: team.id, person: person.id, member: false, changed };
}

const text = (m: Membership) =>
  `${m.person} ${m.changed ? (m.member ? 'added to' : 'removed from') : m.member ? 'already in' : 'was not in'} ${m.team}`;

export const memberAdd = defineCommand(addMember, text);
export const memberRemove = defineCommand(removeMember, text);
