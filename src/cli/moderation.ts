import type { Report, Store } from '../store/ports.js';
import type { Args } from './args.js';
import { defineCommand } from './command.js';

/** A review request: a report whose reason is optional. */
export type Review = Omit<Report, 'reason'> & { reason: string | null };

/** `reports list`: open reports, oldest first. `link restore CODE` resolves a link's reports. */
export async function listReports(_args: Args, store: Store): Promise<{ reports: Report[] }> {
  return { reports: await store.moderation.openReports() };
}

/** `reviews list`: open review requests on flagged links, oldest first. `link restore CODE` resolves them. */
export async function listReviews(_args: Args, store: Store): Promise<{ reviews: Review[] }> {
  return { reviews: await store.moderation.openReviews() };
}

// One line per entry, reason last because it is free text of any length.
const line = (entry: Review) =>
  `${entry.createdAt}  ${entry.linkCode}  ${entry.personId}  ${entry.reason === null ? '-' : JSON.stringify(entry.reason)}`;

export const reportsList = defineCommand(listReports, ({ reports }) =>
  reports.length === 0 ? 'no open reports' : reports.map(line).join('\n'),
);

export const reviewsList = defineCommand(listReviews, ({ reviews }) =>
  reviews.length === 0 ? 'no open review requests' : reviews.map(line).join('\n'),
);
