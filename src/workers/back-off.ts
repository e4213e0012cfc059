/** The first wait, the longest, and how long an unexpected exit counts towards the next wait. */
const FIRST_MS = 250;
const MAX_MS = 30_000;
const WINDOW_MS = 60_000;

/**
 * How long the primary waits before starting a worker in place of one that ended unexpectedly: 250 ms after the
 * first such exit in a minute, twice as long after each further one (500 ms, 1 s, 2 s, ...), at most 30 s. A
 * worker that crashes at every start (a bad file, a full disk) is then tried a few times a minute instead of
 * hundreds of times a second, while one crash now and then is made good at once.
 */
export class RestartBackOff {
  private exits: number[] = [];

  /** Records an unexpected exit at `now` (epoch ms) and answers the wait, in ms, before its replacement starts. */
  next(now: number): number {
    this.exits = this.exits.filter((at) => now - at < WINDOW_MS);
    this.exits.push(now);
    return Math.min(MAX_MS, FIRST_MS * 2 ** (this.exits.length - 1));
  }
}
