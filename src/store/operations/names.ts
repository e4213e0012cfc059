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
  const row = yield* q.nameRow(name);
  if (row?.retired) throw apiError.reservedName(`"${name}" belonged to a deleted link and is never issued again.`, field);
  if (row && row.linkId !== linkId && (row.linkId !== null || row.teamId !== teamId)) {
    throw apiError.nameTaken(`The short link name "${name}" is taken.`, field);
  }
  yield* q.holdName(name, teamId, linkId);
}
