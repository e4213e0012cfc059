import pino from 'pino';
import type { LogLevel } from '../config.js';

export type Logger = pino.Logger;

/**
 * JSON lines, one object a line, for a log collector to read: `level` by name, `time` as ISO 8601, `pid` (so the
 * workers of WORKERS=N, which share standard output, can be told apart) and `msg`; an error goes under `err` with
 * its type, message and stack. Standard output is written asynchronously, a line a request, and flushed when the
 * process exits; standard error (the CLI, a script) synchronously, as console.error was.
 */
export function createLogger(level: LogLevel, fd: 1 | 2 = 1): Logger {
  return pino(
    {
      level,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    pino.destination({ fd, sync: fd === 2 }),
  );
}

let processLogger: Logger | undefined;

/**
 * The process's logger, for faults found deep inside a module (a failed click write, an MCP transport error) that
 * has no request to tell. The server sets it at start (useProcessLog); until then, in the operator CLI or a script,
 * lines go to standard error at `info`, leaving standard output to the command's own answer.
 */
export function processLog(): Logger {
  return (processLogger ??= createLogger('info', 2));
}

/** Where a part's warnings go unless it is handed a log of its own (tests hand one in to read them). */
export const warnLine = (line: string): void => processLog().warn(line);

export function useProcessLog(logger: Logger): void {
  processLogger = logger;
}
