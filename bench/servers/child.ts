/** What every bench server child shares: tell the parent where it listens, and stop when asked. */
export interface Ready {
  type: 'ready';
  url: string;
  [extra: string]: unknown;
}

export function announce(ready: Ready, stop: () => Promise<void> | void): void {
  let stopping = false;
  const finish = async () => {
    if (stopping) return;
    stopping = true;
    await stop();
    process.exit(0);
  };
  process.on('message', (message) => message === 'stop' && void finish());
  process.on('disconnect', () => void finish());
  process.send?.(ready);
}

/**
 * CPU profiles of chosen stretches, on the parent's word ({ type: 'profile-start' }, then
 * { type: 'profile-stop', file }): the child answers { type: 'profile-written', file } once the file is written.
 * For sections whose child spends long seeding before the load (a whole-process --cpu-prof would be mostly that).
 */
export async function profileOnRequest(): Promise<void> {
  const { Session } = await import('node:inspector');
  const { writeFileSync } = await import('node:fs');
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<unknown>((resolve, reject) =>
      session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))),
    );
  await post('Profiler.enable');
  process.on('message', (message: { type?: string; file?: string }) => {
    if (message?.type === 'profile-start') {
      void post('Profiler.setSamplingInterval', { interval: 1000 }).then(() => post('Profiler.start'));
    } else if (message?.type === 'profile-stop' && message.file) {
      const file = message.file;
      void post('Profiler.stop').then((result) => {
        writeFileSync(file, JSON.stringify((result as { profile: unknown }).profile));
        process.send?.({ type: 'profile-written', file });
      });
    }
  });
}
