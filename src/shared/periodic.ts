/** Background work on a schedule (the unsafe-site re-check, the mail sender), stoppable. */
export interface PeriodicJob<T> {
  /** Runs the job now, or joins the run under way: two runs never overlap. */
  runNow(): Promise<T>;
  /** True once stop() was called: a long run checks it between steps and ends early. */
  stopped(): boolean;
  /** No more runs; resolves when the run under way (if any) has ended. */
  stop(): Promise<void>;
}

/**
 * Runs `job` every `intervalMs` (the first one interval after the start), handing each run's outcome to `done`;
 * the schedule alone does not keep the process alive.
 */
export function every<T>(intervalMs: number, job: () => Promise<T>, done: { result(value: T): void; failure(error: unknown): void }): PeriodicJob<T> {
  let running: Promise<T> | undefined;
  let stopped = false;
  const runNow = () => (running ??= job().finally(() => (running = undefined)));
  const timer = setInterval(() => runNow().then(done.result, done.failure), intervalMs);
  timer.unref();
  return {
    runNow,
    stopped: () => stopped,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}
