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
