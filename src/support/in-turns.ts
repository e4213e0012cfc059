/**
 * `send` for one argument at a time while none is under way; the arguments that come meanwhile wait and go to
 * `send` together, which answers each in its place. A quiet caller waits for nothing (its argument goes at once,
 * alone); a busy one sends one batch per round trip instead of one call per argument. `idle` is told once the last
 * batch has answered and none waits.
 */
export function inTurns<A, R>(send: (asked: readonly A[]) => Promise<readonly R[]>, idle?: () => void): (arg: A) => Promise<R> {
  let waiting: Array<{ arg: A; resolve(answer: R): void; reject(error: unknown): void }> = [];
  let busy = false;
  async function drain(): Promise<void> {
    busy = true;
    while (waiting.length > 0) {
      const turn = waiting;
      waiting = [];
      try {
        const answers = await send(turn.map(({ arg }) => arg));
        turn.forEach(({ resolve }, i) => resolve(answers[i]!));
      } catch (error) {
        for (const { reject } of turn) reject(error);
      }
    }
    busy = false;
    idle?.();
  }
  return (arg) =>
    new Promise((resolve, reject) => {
      waiting.push({ arg, resolve, reject });
      if (!busy) void drain();
    });
}
