import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startDnsServer } from './dns-server.js';
import { freePort } from './server.js';

/** `npm start`'s entry, compiled (built by `npm test`'s pretest; run `npm run build` first when running a file alone). */
const MAIN = fileURLToPath(new URL('../../dist/src/main.js', import.meta.url));

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  /** Everything the process wrote to standard output and standard error so far. */
  output(): string;
  /** Its log so far: every complete line of standard output, each parsed as the JSON object it must be. */
  log(): LogLine[];
  /** The exit code, or null while the process runs. */
  exitCode(): number | null;
  /** SIGTERM, then waits for the exit (and stops the process's DNS stand-in). */
  stop(): Promise<void>;
}

/** One line of the server's JSON log. */
export interface LogLine {
  level: string;
  time: string;
  pid: number;
  msg: string;
  [field: string]: unknown;
}

export interface ServerProcessOptions {
  dbPath: string;
  /** The port to listen on (a free one when left out), so a test can start a server again where one was. */
  port?: number;
  /**
   * Adds to the environment; an undefined value removes a variable (PUBLIC_URL, set to `http://127.0.0.1:<port>`
   * unless given here, included), so a test can run without one the surrounding shell has set.
   */
  env?: Record<string, string | undefined>;
}

/**
 * Starts the real server as its own process on loopback (so a crash is a dead process, not a failed test worker),
 * with a DNS stand-in of its own where every name is public, and resolves once it logged its start-up line, which it
 * does after it listens (lines before it, such as an unsafe-site list loaded, do not count).
 */
export async function startServerProcess({ dbPath, port: wanted, env = {} }: ServerProcessOptions): Promise<ServerProcess> {
  const port = wanted ?? (await freePort());
  const dns = await startDnsServer({}, { a: ['93.184.216.34'] });
  // Click analytics written each second, as the daily counts are, so a test reads them after a second's wait.
  const own = {
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATABASE_PATH: dbPath,
    DNS_SERVERS: dns.servers.join(','),
    ANALYTICS_WRITE_MS: '1000',
  };
  const merged = Object.fromEntries(Object.entries({ ...process.env, ...own, ...env }).filter(([, value]) => value !== undefined));
  const child = spawn(process.execPath, [MAIN], { env: merged, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let stdout = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    stdout += chunk.toString();
  });
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const handle: ServerProcess = {
    child,
    port,
    output: () => output,
    log: () => stdout.split('\n').slice(0, -1).map((line) => JSON.parse(line) as LogLine),
    exitCode: () => child.exitCode,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      await dns.close();
    },
  };
  const started = new Promise<'started'>((resolve) => {
    const look = () => {
      if (!output.includes('"msg":"shortlinks serves ')) return;
      child.stdout!.off('data', look);
      resolve('started');
    };
    child.stdout!.on('data', look);
  });
  if ((await Promise.race([started, exited])) === 'started') return handle;
  await dns.close();
  throw new Error(`server exited with ${child.exitCode}: ${output}`);
}
