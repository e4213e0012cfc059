import type { Report, ReviewRequest, Store } from '../store/ports.js';
import type { Args } from './args.js';
import { defineCommand } from './command.js';

/**
 * `reports list`: open reports, oldest first, each marked whether it counts towards flagging now (its reporter is
 * established). `link restore CODE` resolves a link's reports.
 */
export async function listReports(_args: Args, store: Store, now = new Date()): Promise<{ reports: Report[] }> {
  return { reports: await store.moderation.openReports((await store.settings.limits()), now) };
}

/** `reviews list`: open review requests on flagged links, oldest first. `link restore CODE` resolves them. */
export async function listReviews(_args: Args, store: Store): Promise<{ reviews: ReviewRequest[] }> {
  return { reviews: await store.moderation.openReviews() };
}

// One line per entry, reason last because it is free text of any length.
const line = (entry: ReviewRequest, mark = '') =>
  `${entry.createdAt}  ${entry.linkCode}  ${entry.personId}${mark}  ${entry.reason === null ? '-' : JSON.stringify(entry.reason)}`;

// Reports from people not yet established are kept but do not flag a link; the operator should see which is which.
const reportLine = (report: Report) => line(report, report.counts ? '' : ' (not established: does not count)');

export const reportsList = defineCommand(listReports, ({ reports }) =>
  reports.length === 0 ? 'no open reports' : reports.map(reportLine).join('\n'),
);

export const reviewsList = defineCommand(listReviews, ({ reviews }) =>
  reviews.length === 0 ? 'no open review requests' : reviews.map((review) => line(review)).join('\n'),
);
