import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

export interface SlowProxy {
  /** `host:port` of the proxy, to put in a URL in place of the upstream's. */
  address: string;
  /** Cuts every connection through the proxy at once, as a network failure or a server restart would. */
  cut(): void;
  /** While on, every new connection is cut as soon as it is made: the upstream out of reach. */
  refuse(on: boolean): void;
  /**
   * While on, nothing the upstream sends arrives (it is dropped): a server that stopped answering, its connections
   * still open. Turning it off cuts every connection, whose streams lost bytes, as the server's restart would.
   */
  stall(on: boolean): void;
  stop(): Promise<void>;
}

/**
 * A TCP proxy on loopback that hands every byte from the upstream to its client `delayMs` late, in order (the
 * other direction passes at once): a database far away, or a listening connection whose notifications arrive
 * late, without touching the database itself. It can also cut its connections and refuse new ones: the database
 * restarting or the network failing, for one server only.
 */
export async function startSlowProxy(upstream: { host: string; port: number }, delayMs: number): Promise<SlowProxy> {
  const sockets = new Set<Socket>();
  let refusing = false;
  let stalled = false;
  const server = createServer((client) => {
    if (refusing) return void client.destroy();
    const remote = connect(upstream.port, upstream.host);
    sockets.add(client).add(remote);
    client.pipe(remote);
    remote.on('data', (chunk: Buffer) => {
      if (stalled) return;
      setTimeout(() => {
        if (!client.destroyed) client.write(chunk);
      }, delayMs);
    });
    const end = () => setTimeout(() => (client.destroy(), remote.destroy()), delayMs);
    remote.on('close', end);
    remote.on('error', end);
    client.on('close', () => (remote.destroy(), sockets.delete(client), sockets.delete(remote)));
    client.on('error', () => remote.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    address: `127.0.0.1:${port}`,
    cut: () => {
      for (const socket of sockets) socket.destroy();
    },
    refuse: (on) => {
      refusing = on;
    },
    stall: (on) => {
      stalled = on;
      if (!on) for (const socket of sockets) socket.destroy();
    },
    stop: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
