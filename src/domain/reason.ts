/** The most characters a report's or a review request's reason may hold (the tools' rule, shown by the pages). */
export const REASON_MAX = 500;
