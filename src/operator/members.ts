import { apiError } from '../errors.js';
import type { Store } from '../store/ports.js';
import { noSuchTeam, notMember, personByEmail, teamById } from './lookup.js';

/** Whom a member change is about: a team by its id, a person by their email. */
export interface MemberOf {
  team: string;
  email: string;
}

/** A membership after a change: team and person ids, whether they are a member, and whether this changed it. */
export interface Membership {
  team: string;
  person: string;
  member: boolean;
  /** False when there was nothing to do (already a member, or already not one): the change is safe to repeat. */
  changed: boolean;
}

/** A role after promoteMember: whether this changed it. */
export interface Promoted {
  team: string;
  person: string;
  role: 'owner';
  changed: boolean;
}

/** The team and the person a member change names, the team first. */
async function teamAndPerson(store: Store, { team, email }: MemberOf) {
  return { team: await teamById(store, team), person: await personByEmail(store, email) };
}

/** Adds the person to the team. */
export async function addMember(store: Store, of: MemberOf, now: Date): Promise<Membership> {
  const { team, person } = await teamAndPerson(store, of);
  const added = await store.teams.addMember(team.id, person.id, now);
  // The team was deleted since it was looked up.
  if (added === 'no_team') throw noSuchTeam(team.id);
  return { team: team.id, person: person.id, member: true, changed: added === 'added' };
}

/**
 * Removes the person from the team. Their tokens for the team answer `token_record_left` from now on. The
 * operator removes anyone, as an owner would, except the team's only owner: a team keeps an owner while it exists.
 */
export async function removeMember(store: Store, of: MemberOf): Promise<Membership> {
  const { team, person } = await teamAndPerson(store, of);
  const removal = await store.teams.removeMember(team.id, person.id, 'operator');
  switch (removal) {
    case 'removed':
    case 'not_member':
      return { team: team.id, person: person.id, member: false, changed: removal === 'removed' };
    case 'last_owner':
      throw apiError.conflict(
        `${person.email} is the only owner of team ${team.id}, and a team keeps an owner while it exists: make another member an owner first (member promote)`,
        'email',
      );
    case 'no_team':
    case 'not_owner': // never: the operator removes anyone
      throw noSuchTeam(team.id);
  }
}

/** Makes a member an owner of the team too. */
export async function promoteMember(store: Store, of: MemberOf): Promise<Promoted> {
  const { team, person } = await teamAndPerson(store, of);
  const promotion = await store.teams.makeOwner(team.id, person.id, 'operator');
  switch (promotion) {
    case 'made':
    case 'already':
      return { team: team.id, person: person.id, role: 'owner', changed: promotion === 'made' };
    case 'not_member':
      throw notMember(person.email, team.id);
    case 'no_team':
    case 'not_owner': // never: the operator manages every team
      throw noSuchTeam(team.id);
  }
}
