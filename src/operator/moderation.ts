import type { Report, ReviewRequest, Store } from '../store/ports.js';

/**
 * Open reports, oldest first (of one link, given its id), each marked whether it counts towards flagging now (its
 * reporter is established). Restoring the link (setLinkState) resolves them.
 */
export async function listReports(store: Store, now: Date, linkId?: string): Promise<{ reports: Report[] }> {
  return { reports: await store.moderation.openReports(await store.settings.limits(), now, linkId) };
}

/** Open review requests on flagged links, oldest first (of one link, given its id). Restoring the link resolves them. */
export async function listReviews(store: Store, linkId?: string): Promise<{ reviews: ReviewRequest[] }> {
  return { reviews: await store.moderation.openReviews(linkId) };
}
