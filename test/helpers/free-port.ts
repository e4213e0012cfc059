import { createServer } from 'node:net';

// Tests hold a port from here for a while before listening on it (a provider that is "down", a server restarted
// on the same port). The kernel hands out listen(0) ports and outgoing connections' ports from its ephemeral range
// (32768 and up on Linux), so a port below it is never taken by another test's port-0 listener meanwhile.
const FIRST = 20_000;
const COUNT = 12_000;

/** A port nobody listens on right now, on loopback, below the kernel's ephemeral range. */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = FIRST + Math.floor(Math.random() * COUNT);
    if (await bindable(port)) return port;
  }
}

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}
