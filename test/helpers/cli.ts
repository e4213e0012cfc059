import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The compiled CLI (built by `npm test`'s pretest; run `npm run build` first when running a file alone). */
export const CLI = fileURLToPath(new URL('../../dist/src/cli/main.js', import.meta.url));

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Runs `shortlinks <args>` as its own process on the database at `dbPath`; never rejects. */
export function runCli(dbPath: string, ...args: string[]): Promise<Run> {
  const started = performance.now();
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { env: { ...process.env, DATABASE_PATH: dbPath } }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      resolve({ code, stdout, stderr, ms: performance.now() - started });
    });
  });
}
