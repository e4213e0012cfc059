import { apiError } from '../errors.js';

export const LINK_STATES = ['active', 'flagged', 'disabled'] as const;
export type LinkState = (typeof LINK_STATES)[number];

/** 404 for a link that is deleted, never was, or is outside the caller's reach: the three look the same. */
export function linkNotFound() {
  return apiError.notFound('No link has that code.', 'code');
}

/** setDestination and renameLink: a flagged link answers 409 `link_flagged`, a disabled one 409 `link_disabled`. */
export function assertChangeable(state: LinkState): void {
  if (state === 'flagged') throw apiError.linkFlagged();
  if (state === 'disabled') throw apiError.linkDisabled();
}

/** setNote: a disabled link changes nothing (409 `conflict`); a flagged one may still take a note. */
export function assertNoteChangeable(state: LinkState): void {
  if (state === 'disabled') throw apiError.conflict('The link was disabled by the service and cannot be changed.');
}
