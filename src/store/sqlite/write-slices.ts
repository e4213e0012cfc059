/**
 * How long one transaction of a background write (the clicks of a second, ten seconds of click analytics) may hold
 * the file and the event loop before it gives both back. Requests arriving meanwhile wait for it: at 2 ms a visit
 * during such a write waits about 3 ms in all (4 ms made it 6, past what a p99 under 10 ms can afford). A write over
 * thousands of links is many of them, each its own transaction.
 */
export const WRITE_SLICE_MS = 2;
