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
 * applies) and, optionally, another current folder, or under a bash `shell` script that runs the command as
 * `"$@"`; never rejects.
 */
export function runCliWith(options: { env: Record<string, string | undefined>; cwd?: string; shell?: string }, ...args: string[]): Promise<Run> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries({ ...process.env, ...options.env })) if (value !== undefined) env[name] = value;
  const command = [process.execPath, CLI, ...args];
  const [file, argv] = options.shell === undefined ? [command[0]!, command.slice(1)] : ['bash', ['-c', options.shell, 'bash', ...command]];
  const started = performance.now();
  return new Promise((resolve) => {
    execFile(file, argv, { env, ...(options.cwd ? { cwd: options.cwd } : {}) }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      resolve({ code, stdout, stderr, ms: performance.now() - started });
    });
  });
}

/** Runs `shortlinks <args> --json` on the database at (or behind) `dbPath`, expects success, and parses what it printed. */
export async function cliJson(dbPath: string, ...args: string[]): Promise<any> {
  const run = await runCli(dbPath, ...args, '--json');
  if (run.code !== 0) throw new Error(`shortlinks ${args.join(' ')} exited ${run.code}: ${run.stderr}`);
  return JSON.parse(run.stdout);
}

/**
 * What a test of the real server process starts from, made by the CLI as an operator would: a person, their team
 * and a token for it, with the creation limits raised out of the way.
 */
export async function operatorSetUp(dbPath: string, email: string): Promise<{ team: string; token: string }> {
  const person = await cliJson(dbPath, 'person', 'add', '--email', email, '--agree-terms');
  const team = (await cliJson(dbPath, 'team', 'add', '--name', 'Operated', '--owner', person.email)).id as string;
  const { token } = await cliJson(dbPath, 'token', 'create', '--email', person.email, '--team', team);
  await cliJson(dbPath, 'limits', 'set', '--team-links', '100000', '--per-hour', '100000', '--per-day', '100000', '--first-week-per-day', '100000');
  return { team, token };
}
