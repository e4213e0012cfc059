import { apiError } from '../errors.js';

export const LINK_STATES = ['active', 'flagged', 'disabled'] as const;
export type LinkState = (typeof LINK_STATES)[number];

/** 404 for a link that is deleted, never was, or is outside the caller's reach: the three look the same. */
export function linkNotFound() {
  return apiError.notFound('No link has that code.', 'code');
}

/** What setDestination, renameLink and setLinkOptions change, as a refusal names it. */
export type ChangeableField = 'destination' | 'name' | 'options';

/**
 * setDestination and renameLink: a flagged link answers 409 `link_flagged`, a disabled one 409 `link_disabled`.
 * The flagged refusal names what the call tried to change, so a rename is not told about its destination.
 */
export function assertChangeable(state: LinkState, field: ChangeableField): void {
  if (state === 'flagged') throw apiError.linkFlagged(field === 'destination' ? undefined : FLAGGED[field]);
  if (state === 'disabled') throw apiError.linkDisabled();
}

const FLAGGED = {
  name: 'The short link name cannot change while the link is flagged; ask for a review.',
  options: "The link's options cannot change while the link is flagged; ask for a review.",
};

/** setNote: a disabled link changes nothing (409 `conflict`); a flagged one may still take a note. */
export function assertNoteChangeable(state: LinkState): void {
  if (state === 'disabled') throw apiError.conflict('The link was disabled by the service and cannot be changed.');
}
