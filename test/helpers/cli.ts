import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { databaseEnv } from './database-env.js';

/** The compiled CLI (built by `npm test`'s pretest; run `npm run build` first when running a file alone). */
export const CLI = fileURLToPath(new URL('../../dist/src/cli/main.js', import.meta.url));

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Runs `shortlinks <args>` as its own process on the database at `dbPath` (or behind it); never rejects. */
export function runCli(dbPath: string, ...args: string[]): Promise<Run> {
  return runCliWith({ env: databaseEnv(dbPath) }, ...args);
}

/**
 * Runs `shortlinks <args>` with extra environment variables (an `undefined` one is removed, so the CLI's default
 * applies) and, optionally, another current folder; never rejects.
 */
export function runCliWith(options: { env: Record<string, string | undefined>; cwd?: string }, ...args: string[]): Promise<Run> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries({ ...process.env, ...options.env })) if (value !== undefined) env[name] = value;
  const started = performance.now();
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { env, ...(options.cwd ? { cwd: options.cwd } : {}) }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      resolve({ code, stdout, stderr, ms: performance.now() - started });
    });
  });
}
