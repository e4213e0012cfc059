import type { Store, Team } from '../store/ports.js';
import { quote, required, type Args } from './args.js';
import { defineCommand } from './command.js';
import { dataError } from './errors.js';
import { personByEmail, teamById } from './lookup.js';

/** A membership after the command: team and person ids, whether they are a member, and whether this changed it. */
export interface Membership {
  team: string;
  person: string;
  member: boolean;
  /** False when there was nothing to do (already a member, or already not one): the command is safe to repeat. */
  changed: boolean;
}

/** The team and the person a member command names. */
async function teamAndPerson(args: Args, store: Store) {
  const team = await teamById(store, required(args, 'team'));
  const person = await personByEmail(store, required(args, 'email'));
  return { team, person };
}

/** The team was deleted since it was looked up. */
const gone = (team: Team) => dataError(`no team has the id ${quote(team.id)}`);

/** `member add --team TEAM_ID --email E`. */
export async function addMember(args: Args, store: Store, now = new Date()): Promise<Membership> {
  const { team, person } = await teamAndPerson(args, store);
  const added = await store.teams.addMember(team.id, person.id, now);
  if (added === 'no_team') throw gone(team);
  return { team: team.id, person: person.id, member: true, changed: added === 'added' };
}

/**
 * `member remove --team TEAM_ID --email E`. Their tokens for the team answer `token_record_left` from now on. The
 * operator removes anyone, as an owner would, except the team's only owner: a team keeps an owner while it exists.
 */
export async function removeMember(args: Args, store: Store): Promise<Membership> {
  const { team, person } = await teamAndPerson(args, store);
  const removal = await store.teams.removeMember(team.id, person.id, 'operator');
  switch (removal) {
    case 'removed':
    case 'not_member':
      return { team: team.id, person: person.id, member: false, changed: removal === 'removed' };
    case 'last_owner':
      throw dataError(
        `${person.email} is the only owner of team ${team.id}, and a team keeps an owner while it exists: make another member an owner first (member promote)`,
      );
    case 'no_team':
    case 'not_owner': // never: the operator removes anyone
      throw gone(team);
  }
}

/** A role after `member promote`: whether this changed it. */
export interface Promoted {
  team: string;
  person: string;
  role: 'owner';
  changed: boolean;
}

/** `member promote --team TEAM_ID --email E`: makes a member an owner of the team too. */
export async function promoteMember(args: Args, store: Store): Promise<Promoted> {
  const { team, person } = await teamAndPerson(args, store);
  const promotion = await store.teams.makeOwner(team.id, person.id, 'operator');
  switch (promotion) {
    case 'made':
    case 'already':
      return { team: team.id, person: person.id, role: 'owner', changed: promotion === 'made' };
    case 'not_member':
      throw dataError(`${person.email} is not a member of team ${team.id}`);
    case 'no_team':
    case 'not_owner': // never: the operator manages every team
      throw gone(team);
  }
}

const text = (m: Membership) =>
  `${m.person} ${m.changed ? (m.member ? 'added to' : 'removed from') : m.member ? 'already in' : 'was not in'} ${m.team}`;

export const memberAdd = defineCommand(addMember, text);
export const memberRemove = defineCommand(removeMember, text);
export const memberPromote = defineCommand(promoteMember, (p) => `${p.person} ${p.changed ? 'is now' : 'already was'} an owner of ${p.team}`);
