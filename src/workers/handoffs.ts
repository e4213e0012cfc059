import type { Worker } from 'node:cluster';

/** A connection's handle as the primary holds it (a TCP handle of node's). */
interface Closable {
  close(): void;
}

/**
 * Closes the connections handed to `worker` that it never took, once it is gone. Node's cluster primary accepts
 * each connection, sends it to a worker (`{cmd: 'NODE_CLUSTER', act: 'newconn', seq}` with the handle) and closes
 * its own copy only when the worker acknowledges it (`{ack: seq}`). A worker killed in between never does, so the
 * primary held the connection open and its client waited for an answer until it gave up by itself. Here each
 * handoff is noted until its acknowledgement, and those still unacknowledged when the worker has exited (nothing
 * sent to it can arrive any more) are closed: the client sees the connection reset at once and can retry, on a
 * worker that serves. Closing a handle node closed already does nothing (an acknowledgement read after the exit).
 *
 * The messages are node's internals (lib/internal/cluster), not its API: test/e2e/workers.test.ts kills a worker
 * holding a handoff, so a node that changed them fails it.
 */
export function closeHandoffsOfDeadWorker(worker: Worker): void {
  const child = worker.process;
  const inTransit = new Map<number, Closable>();
  const send = child.send.bind(child) as (...args: unknown[]) => boolean;
  child.send = ((...args: unknown[]) => {
    const [message, handle] = args;
    if (isHandoff(message) && isClosable(handle)) inTransit.set(message.seq, handle);
    return send(...args);
  }) as typeof child.send;
  child.on('internalMessage', (message: unknown) => {
    if (isClusterMessage(message) && typeof message.ack === 'number') inTransit.delete(message.ack);
  });
  // On its exit, not the channel's end: node postpones that while a handle it sent waits to be received.
  worker.once('exit', () => {
    for (const handle of inTransit.values()) handle.close();
    inTransit.clear();
  });
}

function isClusterMessage(message: unknown): message is Record<string, unknown> {
  return typeof message === 'object' && message !== null && (message as { cmd?: unknown }).cmd === 'NODE_CLUSTER';
}

function isHandoff(message: unknown): message is { seq: number } {
  return isClusterMessage(message) && message.act === 'newconn' && typeof message.seq === 'number';
}

function isClosable(handle: unknown): handle is Closable {
  return typeof handle === 'object' && handle !== null && typeof (handle as { close?: unknown }).close === 'function';
}
