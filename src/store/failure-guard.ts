import { tellStoreFailure, type StoreFailure } from '../errors.js';
import type { Store } from './ports.js';

/** An adapter's reading of its driver's errors (sqlite/failures.ts, postgres/failures.ts). */
export type FailureReader = (error: unknown) => StoreFailure | null;

/** Tells what `error` means as `read` finds it (errors.ts tellStoreFailure), and hands the same error back. */
export function told(read: FailureReader, error: unknown): unknown {
  tellStoreFailure(error, read(error));
  return error;
}

/**
 * `fn`, with what its failures mean told as they pass: a thrown error or a rejection. The same error is rethrown,
 * so callers and the log see the driver's own.
 */
export function guarded<A extends unknown[], R>(read: FailureReader, fn: (...args: A) => R): (...args: A) => R {
  return (...args) => call(read, fn, undefined, args);
}

/**
 * The adapter's store as the service sees it: every method of every port (and `ready`, `close`) tells what its
 * failures mean, so nothing outside the adapter reads a driver's codes or words. Built once at open; a port's
 * other properties (StoreChanges.cachesCheckThemselves) are read through.
 */
export function guardFailures(store: Store, read: FailureReader): Store {
  const guardedStore: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(store)) {
    guardedStore[name] = typeof value === 'function' ? methodOf(read, store, value as Method) : guardPort(read, value as object);
  }
  return guardedStore as unknown as Store;
}

type Method = (...args: unknown[]) => unknown;

function guardPort(read: FailureReader, port: object): object {
  const guardedPort: Record<string, unknown> = {};
  // A port may be a class instance (StoreChanges): its methods are on its prototypes.
  for (let from: object | null = port; from !== null && from !== Object.prototype; from = Object.getPrototypeOf(from)) {
    for (const name of Object.getOwnPropertyNames(from)) {
      if (name === 'constructor' || name in guardedPort) continue;
      const value = (port as Record<string, unknown>)[name];
      if (typeof value === 'function') guardedPort[name] = methodOf(read, port, value as Method);
      else Object.defineProperty(guardedPort, name, { get: () => (port as Record<string, unknown>)[name], enumerable: true });
    }
  }
  return guardedPort;
}

function methodOf(read: FailureReader, self: object, fn: Method): Method {
  return (...args) => call(read, fn, self, args);
}

function call<A extends unknown[], R>(read: FailureReader, fn: (...args: A) => R, self: unknown, args: A): R {
  let result: R;
  try {
    result = fn.apply(self, args);
  } catch (error) {
    throw told(read, error);
  }
  return result instanceof Promise ? (result.catch((error: unknown) => Promise.reject(told(read, error))) as R) : result;
}
