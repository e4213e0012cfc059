/**
 * How long one transaction of a background write (the clicks of a second, ten seconds of click analytics) may hold
 * the file and the event loop before it gives both back. Requests arriving meanwhile wait for it, and for its commit
 * and the requests queued behind it: at 4 ms a visit during such a write waited about 6 ms; at 2 ms the p99 of paced
 * redirects over 5,000 links with analytics was 7 to 17 ms (median 11.7), at 1 ms 6 to 13 ms (median 8.1), for no
 * more CPU per redirect. A write over thousands of links is many of them, each its own transaction.
 */
export const WRITE_SLICE_MS = 1;
