import { apiError } from '../errors.js';

/**
 * Who may do what to a team. The rules are judged inside the store's transaction, on the members as they are at
 * that moment (store/operations/teams.ts), so two people acting at once cannot both pass a check that only one of
 * them may pass: two owners leaving together leave one owner behind.
 */
export type TeamRole = 'owner' | 'member';

export interface Membership {
  personId: string;
  role: TeamRole;
}

/**
 * Who acts on a team: a person (the web app), or the operator (the CLI), who belongs to no team and manages every
 * team as its owners do.
 */
export type TeamActor = { personId: string } | 'operator';

/** What removing a member came to. */
export type Removal = 'removed' | 'no_team' | 'not_member' | 'not_owner' | 'last_owner';

/** What renaming or deleting a team may be refused with. */
export type Refusal = 'no_team' | 'not_owner';

/** What making a member an owner came to. */
export type Promotion = 'made' | 'already' | 'not_member' | Refusal;

/** The actor's standing: a person outside the team finds no team at all, so its existence does not leak. */
function standing(members: readonly Membership[], by: TeamActor): TeamRole | 'stranger' {
  if (by === 'operator') return 'owner';
  return members.find((m) => m.personId === by.personId)?.role ?? 'stranger';
}

/**
 * Renaming and deleting a team are for its owners. Null when `by` may; otherwise why not.
 */
export function refusalToManage(members: readonly Membership[], by: TeamActor): Refusal | null {
  const role = standing(members, by);
  return role === 'stranger' ? 'no_team' : role === 'member' ? 'not_owner' : null;
}

/** Making a member an owner is for owners (and the operator), as renaming is. */
export function judgePromotion(members: readonly Membership[], targetId: string, by: TeamActor): Promotion {
  const refusal = refusalToManage(members, by);
  if (refusal) return refusal;
  const target = members.find((m) => m.personId === targetId);
  return !target ? 'not_member' : target.role === 'owner' ? 'already' : 'made';
}

/**
 * Removing `targetId` from the team: anyone may leave; only an owner (or the operator) removes others; and a team
 * keeps an owner while it exists, so its only owner can neither leave nor be removed, even when no one else is
 * left (they make another member an owner first, or delete the team: a team without members would keep its links
 * with no one to answer for them).
 */
export function judgeRemoval(members: readonly Membership[], targetId: string, by: TeamActor): Removal {
  const role = standing(members, by);
  if (role === 'stranger') return 'no_team';
  const target = members.find((m) => m.personId === targetId);
  if (!target) return 'not_member';
  const self = by !== 'operator' && by.personId === targetId;
  if (!self && role !== 'owner') return 'not_owner';
  const owners = members.filter((m) => m.role === 'owner').length;
  if (target.role === 'owner' && owners === 1) return 'last_owner';
  return 'removed';
}

/** 404 for a team that is gone, never was, or is outside the caller's teams: the three look the same. */
export function teamNotFound() {
  return apiError.notFound('No team with that id is among your teams.', 'team');
}
