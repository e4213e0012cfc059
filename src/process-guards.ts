import { processLog } from './observability/logger.js';

/**
 * What the server process does with errors nobody caught. A rejected promise that nobody awaited is logged and the
 * service goes on: each request's work is independent, so one stray rejection leaves nothing half-done for others.
 * An uncaught exception is different: it may have left shared state half-changed, so it is logged and the process
 * exits non-zero for its supervisor (or the operator) to start it again. Both go to the process's log, with their
 * stack; the log writes what it holds before the process exits.
 */
export function guardProcess(log: (message: string, error: unknown) => void = defaultLog): void {
  process.on('unhandledRejection', (reason) => log('Unhandled rejection (the service goes on)', reason));
  process.on('uncaughtException', (error) => {
    log('Uncaught exception (the process exits)', error);
    process.exit(1);
  });
}

function defaultLog(message: string, error: unknown): void {
  processLog().error({ err: error }, message);
}
