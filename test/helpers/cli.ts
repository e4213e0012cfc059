import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { databaseEnv } from './database-env.js';

/** The compiled CLI (built by `npm test`'s pretest; run `npm run build` first when running a file alone). */
export const CLI = fileURLToPath(new URL('../../dist/src/cli/main.js', import.meta.url));
/** What main.js runs: the module the CLI host imports to run command lines without starting a process each. */
const RUN_MODULE = fileURLToPath(new URL('../../dist/src/cli/run.js', import.meta.url));
const HOST = fileURLToPath(new URL('./cli-host.mjs', import.meta.url));

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}

/** How a command line is run: its environment, current folder, and what only a process of its own can show. */
export interface CliOptions {
  /** Added to this process's environment; an `undefined` one is removed, so the CLI's default applies. */
  env: Record<string, string | undefined>;
  cwd?: string;
  /** A bash script that runs the command as `"$@"` (and may time it or look at the process): a process of its own. */
  shell?: string;
  /** The real executable as a process of its own, for what the CLI host cannot show: how the process itself ends. */
  ownProcess?: boolean;
}

/** Runs `shortlinks <args>` on the database at `dbPath` (or behind it); never rejects. */
export function runCli(dbPath: string, ...args: string[]): Promise<Run> {
  return runCliWith({ env: databaseEnv(dbPath) }, ...args);
}

/**
 * Runs `shortlinks <args>` with extra environment variables and, optionally, another current folder; never
 * rejects. It runs in the CLI host (below), which answers as a process of its own would, unless the call needs a
 * process: under a `shell` script, `ownProcess`, `serve` (a server, which keeps running), or an environment variable
 * node reads only as it starts (NODE_*, UV_*).
 */
export function runCliWith(options: CliOptions, ...args: string[]): Promise<Run> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries({ ...process.env, ...options.env })) if (value !== undefined) env[name] = value;
  const cwd = options.cwd ?? process.cwd();
  const started = performance.now();
  const ran = needsOwnProcess(options, args) ? runProcess(env, cwd, options.shell, args) : runInHost(env, cwd, args);
  return ran.then((answer) => ({ ...answer, ms: performance.now() - started }));
}

/** A call the CLI host cannot answer as the process would: see runCliWith. */
function needsOwnProcess(options: CliOptions, args: readonly string[]): boolean {
  const startupVariable = Object.keys(options.env).some((name) => /^(NODE|UV)_/.test(name));
  return options.ownProcess === true || options.shell !== undefined || args[0] === 'serve' || startupVariable;
}

/** What a command line gave: its exit code and everything it wrote. */
type Answer = Omit<Run, 'ms'>;

function runProcess(env: Record<string, string>, cwd: string, shell: string | undefined, args: string[]): Promise<Answer> {
  const command = [process.execPath, CLI, ...args];
  const [file, argv] = shell === undefined ? [command[0]!, command.slice(1)] : ['bash', ['-c', shell, 'bash', ...command]];
  return new Promise((resolve) => {
    execFile(file, argv, { env, cwd }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * The CLI hosts (test/helpers/cli-host.mjs) of this test worker: long-lived processes that each run one command line
 * at a time, started when no idle one is left, so calls made at once still run at once, in processes of their own.
 * An idle host keeps the worker from exiting no more than a finished process would; it ends with the worker.
 */
interface Host {
  child: ChildProcess;
  /** Answers the call it runs; null while idle. */
  answer: ((answer: Answer) => void) | null;
}

const idle: Host[] = [];
const hosts = new Set<Host>();

function startHost(): Host {
  // No node flags, as the CLI's own process has none; its stderr is the worker's, so a crash of the host shows.
  const child = spawn(process.execPath, [HOST, RUN_MODULE, CLI], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const host: Host = { child, answer: null };
  hosts.add(host);
  child.on('message', (message: Answer) => host.answer?.(message));
  child.on('exit', (code, signal) => {
    hosts.delete(host);
    const at = idle.indexOf(host);
    if (at >= 0) idle.splice(at, 1);
    host.answer?.({ code: code ?? -1, stdout: '', stderr: `the CLI host ended (${signal ?? code}) during the command: see its output above\n` });
  });
  return host;
}

process.on('exit', () => {
  for (const host of hosts) host.child.kill();
});

function runInHost(env: Record<string, string>, cwd: string, argv: string[]): Promise<Answer> {
  const host = idle.pop() ?? startHost();
  host.child.ref();
  host.child.channel?.ref();
  return new Promise((resolve) => {
    host.answer = (answer) => {
      host.answer = null;
      host.child.unref();
      host.child.channel?.unref();
      if (hosts.has(host)) idle.push(host);
      resolve(answer);
    };
    host.child.send({ argv, env, cwd });
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
