import { apiError } from '../../errors.js';
import type { Steps } from './steps.js';
import { q, type LinkQueries } from './link-queries.js';

/**
 * The one namespace of short link names:
 * - held by a live link (any team): 409 `name_taken`;
 * - kept by another team after a rename: 409 `name_taken` (the keeping team may take it again);
 * - the name of a deleted link: 400 `reserved_name`, for everyone, forever.
 */
export function* claimName(name: string, teamId: string, linkId: string, field: string): Steps<LinkQueries, void> {
  yield* q.lockName(name);
  yield* refuseTakenName(name, teamId, linkId, field);
  yield* q.holdName(name, teamId, linkId);
}

/**
 * Refuses the name as claimName would for link `linkId` of the team (null: a link not made yet), holding nothing:
 * so a form can show a taken name beside its other faults before anything is changed.
 */
export function* refuseTakenName(name: string, teamId: string, linkId: string | null, field: string): Steps<LinkQueries, void> {
  const row = yield* q.nameRow(name);
  if (row?.retired) throw apiError.reservedName(`"${name}" belonged to a deleted link and is never issued again.`, field);
  const heldByThisLink = row !== null && linkId !== null && row.linkId === linkId;
  if (row && !heldByThisLink && (row.linkId !== null || row.teamId !== teamId)) {
    throw apiError.nameTaken(`The short link name "${name}" is taken.`, field);
  }
}
