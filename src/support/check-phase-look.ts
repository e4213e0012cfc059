import { nextTurn } from './next-turn.js';

/**
 * `look` run once in the check phase of the event loop for every caller that asked since the last run, which all
 * wait for it: the poll phase reads every request that had arrived before the check phase runs, so each of them was
 * read from its socket before the look, and what changed before any of them was sent is seen.
 *
 * The wait also answers the requests of one turn together, after all of them were read, rather than each as it is
 * read: a server that answers one request while the next ones wait in its socket buffers wakes the load (the
 * clients, the proxy) once per answer, and paid about twice the CPU per redirect in the bench (on PostgreSQL, whose
 * look was at once, against SQLite's in the check phase: 104 against 49 µs per redirect).
 */
export function checkPhaseLook(look: () => void): () => Promise<void> {
  let shared: Promise<void> | null = null;
  return () =>
    (shared ??= nextTurn().then(() => {
      shared = null;
      look();
    }));
}
