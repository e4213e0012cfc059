import { listReports, listReviews } from '../operator/moderation.js';
import type { Report, ReviewRequest } from '../store/ports.js';
import { defineCommand } from './command.js';

// One line per entry, reason last because it is free text of any length.
const line = (entry: ReviewRequest, mark = '') =>
  `${entry.createdAt}  ${entry.linkCode}  ${entry.personId}${mark}  ${entry.reason === null ? '-' : JSON.stringify(entry.reason)}`;

// Reports from people not yet established are kept but do not flag a link; the operator should see which is which.
const reportLine = (report: Report) => line(report, report.counts ? '' : ' (not established: does not count)');

/** `reports list`: open reports, oldest first, each marked whether it counts. `link restore CODE` resolves them. */
export const reportsList = defineCommand(
  (_args, store) => listReports(store, new Date()),
  ({ reports }) => (reports.length === 0 ? 'no open reports' : reports.map(reportLine).join('\n')),
);

/** `reviews list`: open review requests on flagged links, oldest first. `link restore CODE` resolves them. */
export const reviewsList = defineCommand(
  (_args, store) => listReviews(store),
  ({ reviews }) => (reviews.length === 0 ? 'no open review requests' : reviews.map((review) => line(review)).join('\n')),
);
