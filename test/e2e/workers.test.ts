import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, runCliWith } from '../helpers/cli.js';
import { databaseEnv } from '../helpers/database-env.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';

/**
 * `WORKERS=2 npm start`: a primary and two worker processes on one port and one SQLite file. Each request here
 * comes on a connection of its own, so the primary's round-robin spreads them over both workers, and
 * `X-Served-By` names the process that answered.
 */
let dir: string;
let dbPath: string;
let server: ServerProcess;
let token: string;
let team: string;

const BROWSER = { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36' };

interface Answer {
  status: number;
  location: string | undefined;
  servedBy: string;
  body: string;
}

/** One request on a new connection. */
function send(method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, method, path, headers, agent: false }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () =>
        resolve({ status: res.statusCode!, location: res.headers.location, servedBy: String(res.headers['x-served-by']), body: text }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

const api = async (op: string, input: unknown) => {
  const answer = await send('POST', `/v1/${op}`, { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, JSON.stringify(input));
  return { ...answer, json: JSON.parse(answer.body) };
};
const visit = (code: string) => send('GET', `/${code}`, BROWSER);

/** The worker processes the primary started, as the kernel lists its children. */
function workersOf(primary: number): string[] {
  return readFileSync(`/proc/${primary}/task/${primary}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
}

/** Requests until `wanted` distinct processes answered (or 40 requests): which processes answered what. */
async function untilServedBy(wanted: number, sendOne: () => Promise<Answer>): Promise<Answer[]> {
  const answers: Answer[] = [];
  while (new Set(answers.map((a) => a.servedBy)).size < wanted && answers.length < 40) answers.push(await sendOne());
  return answers;
}

/**
 * Waits (30 s at most) until `done` holds: a worker started again takes a second or two to serve on a quiet machine,
 * and over 5 s on a loaded 2-core runner, after the primary's back-off, which doubles with each worker this file's
 * tests end within a minute (4 s by the fifth: workers/back-off.ts); 15 s ran out once in CI. What must happen at
 * once is timed by the test itself.
 */
async function until(done: () => boolean): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(done()).toBe(true);
}

async function cli(...args: string[]) {
  const run = await runCli(dbPath, ...args, '--json');
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'shortlinks-workers-'));
  dbPath = join(dir, 'workers.db');
  // A new file: the primary applies the migrations before either worker opens it.
  server = await startServerProcess({ dbPath, env: { WORKERS: '2' } });
  const email = (await cli('person', 'add', '--email', 'workers@example.com', '--agree-terms')).email;
  team = (await cli('team', 'add', '--name', 'Workers', '--owner', email)).id;
  token = (await cli('token', 'create', '--email', email, '--team', team)).token;
});
afterAll(async () => {
  if (server?.exitCode() === null) await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('WORKERS=2', () => {
  it('logs its start-up lines once, from the primary, naming the worker processes, on a database it made', async () => {
    // The helper returns at the first line; the second follows at once.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const lines = server.log();
    expect(lines.map((line) => line.msg)).toEqual([
      `shortlinks serves http://127.0.0.1:${server.port} (listening on 127.0.0.1:${server.port}, 2 worker processes)`,
      `created a new database at ${dbPath}`,
    ]);
    for (const line of lines) expect(line.pid).toBe(server.child.pid);
    expect(lines[0]).toMatchObject({ workers: 2, database: { kind: 'sqlite', path: dbPath, created: true }, metrics: 'off' });
  });

  it('answers from both worker processes, never from the primary, and each worker logs its own requests', async () => {
    const answers = await untilServedBy(2, () => send('GET', '/health'));
    const servedBy = new Set(answers.map((a) => a.servedBy));
    expect(servedBy.size).toBe(2);
    expect([...servedBy].sort()).toEqual(workersOf(server.child.pid!).sort());
    expect(servedBy.has(String(server.child.pid))).toBe(false);
    const logged = () => server.log().filter((line) => line.msg === 'request' && line.route === '/health');
    await until(() => logged().length === answers.length);
    expect(new Set(logged().map((line) => String(line.pid)))).toEqual(servedBy);
  });

  it('a change answered by one worker shows on the next request the other worker answers', async () => {
    const made = (await api('createLink', { team, destination: 'https://example.com/before' })).json;
    // Both workers have the link in their caches.
    for (const answer of await untilServedBy(2, () => visit(made.code))) expect(answer.location).toBe('https://example.com/before');
    const changed = await api('setDestination', { code: made.code, destination: 'https://example.com/after' });
    expect(changed.status).toBe(200);
    const answers = await untilServedBy(2, () => visit(made.code));
    expect(answers.some((answer) => answer.servedBy !== changed.servedBy)).toBe(true);
    for (const answer of answers) expect(answer.location).toBe('https://example.com/after');
  });

  it('has one calls-per-minute budget, whichever worker answers', async () => {
    // A person of their own, whose budget no earlier test used.
    const email = (await cli('person', 'add', '--email', 'budget@example.com', '--agree-terms')).email;
    const own = (await cli('team', 'add', '--name', 'Budget', '--owner', email)).id;
    const theirs = (await cli('token', 'create', '--email', email, '--team', own)).token;
    const listTeams = async () => {
      const answer = await send('POST', '/v1/listTeams', { authorization: `Bearer ${theirs}`, 'content-type': 'application/json' }, '{}');
      return { ...answer, json: JSON.parse(answer.body) };
    };
    await cli('limits', 'set', '--calls-per-minute', '20');
    try {
      // A new connection per request: the cluster hands them to both workers.
      const answers = await Promise.all(Array.from({ length: 30 }, listTeams));
      expect(new Set(answers.map((answer) => answer.servedBy)).size).toBe(2);
      expect(answers.filter((answer) => answer.status === 200)).toHaveLength(20);
      const refused = answers.filter((answer) => answer.status === 429);
      expect(refused).toHaveLength(10);
      for (const answer of refused) expect(answer.json.code).toBe('rate_limited');
    } finally {
      await cli('limits', 'set', '--calls-per-minute', '600');
    }
  });

  it('starts a worker again when one dies, waiting longer after each death in a row', async () => {
    const made = [];
    for (let i = 0; i < 6; i++) made.push((await api('createLink', { team, destination: `https://example.com/kept/${i}` })).json.code);
    for (const wait of [250, 500]) {
      const [victim, other] = workersOf(server.child.pid!);
      expect(Number(victim)).toBeGreaterThan(1);
      process.kill(Number(victim), 'SIGKILL');
      await until(() => server.output().includes(`Worker ${victim} ended (signal SIGKILL); another starts in ${wait} ms.`));
      // Until its replacement starts (a back-off away), the other worker answers, with every link answered before
      // the kill.
      const listed = await api('listLinks', { team, limit: 100 });
      expect(listed.json.data.map((l: { code: string }) => l.code)).toEqual(expect.arrayContaining(made));
      expect(listed.servedBy).toBe(other);
      await until(() => workersOf(server.child.pid!).length === 2);
      const [replacement] = workersOf(server.child.pid!).filter((pid) => pid !== other);
      expect(replacement).not.toBe(victim);
      await until(() => server.output().includes(`Worker ${replacement} serves in place of the one that ended.`));
    }
    const answers = await untilServedBy(2, () => send('GET', '/health'));
    expect(new Set(answers.map((a) => a.servedBy))).toEqual(new Set(workersOf(server.child.pid!)));
  });

  it('resets at once a connection handed to a worker that dies before taking it', async () => {
    const [victim, other] = workersOf(server.child.pid!);
    // A stopped worker takes nothing: of three connections at once the primary hands one to it, and that one
    // waits in the handoff, while the other worker answers the other two.
    process.kill(Number(victim), 'SIGSTOP');
    const settled: string[] = [];
    const settle = (outcome: string) => settled.push(outcome);
    try {
      for (let i = 0; i < 3; i++) {
        send('GET', '/health').then(
          (answer) => settle(`${answer.status} from ${answer.servedBy}`),
          (error: NodeJS.ErrnoException) => settle(String(error.code)),
        );
      }
      await until(() => settled.length === 2);
      expect(settled).toEqual([`200 from ${other}`, `200 from ${other}`]);
    } finally {
      process.kill(Number(victim), 'SIGKILL');
    }
    // Within `until`'s bound: it used to wait for an answer until the client gave up (never, here); it takes 0.1 to
    // 0.6 s on a quiet machine.
    await until(() => settled.length === 3);
    expect(settled[2]).toBe('ECONNRESET');
    await until(() => workersOf(server.child.pid!).length === 2);
    const [replacement] = workersOf(server.child.pid!).filter((pid) => pid !== other);
    await until(() => server.output().includes(`Worker ${replacement} serves in place of the one that ended.`));
  });

  it('adds up the clicks of both workers, written by each as it closes on Ctrl-C, and exits 0', async () => {
    const made = (await api('createLink', { team, destination: 'https://example.com/clicked' })).json;
    const visits = await Promise.all(Array.from({ length: 10 }, () => visit(made.code)));
    expect(visits.map((v) => v.status)).toEqual(Array(10).fill(302));
    expect(new Set(visits.map((v) => v.servedBy)).size).toBe(2);
    const workers = workersOf(server.child.pid!);
    // At once, before either worker's every-second write, and as a terminal's Ctrl-C does: SIGINT to every process
    // of the group, so each worker gets it twice (its own, then the primary's) and must still finish closing.
    for (const pid of workers.map(Number)) process.kill(pid, 'SIGINT');
    for (const pid of [server.child.pid!, ...workers.map(Number)]) process.kill(pid, 'SIGINT');
    await until(() => server.exitCode() !== null);
    expect(server.exitCode()).toBe(0);
    expect(server.output()).toContain('SIGINT: closing 2 workers');
    expect(server.output()).not.toContain('while closing');
    for (const pid of workers) expect(existsSync(`/proc/${pid}`)).toBe(false);
    await server.stop();
    const db = new Database(dbPath, { readonly: true });
    try {
      expect(db.prepare('SELECT sum(count) FROM clicks JOIN links ON links.id = clicks.link_id WHERE links.code = ?').pluck().get(made.code)).toBe(10);
    } finally {
      db.close();
    }
  });

  it('stops with exit code 1 when a worker cannot start (the port is taken), as one process would', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const port = (taken.address() as { port: number }).port;
      await expect(startServerProcess({ dbPath, port, env: { WORKERS: '2' } })).rejects.toThrow(
        /server exited with 1: [\s\S]*EADDRINUSE[\s\S]*A worker ended before the service started \(exit code 1\); stopping\./,
      );
    } finally {
      taken.close();
    }
  });

  it('and so does `shortlinks serve`, whose workers used to run on without listening', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const port = String((taken.address() as { port: number }).port);
      const env = { ...databaseEnv(dbPath), PORT: port, HOST: '127.0.0.1', PUBLIC_URL: `http://127.0.0.1:${port}`, WORKERS: '2' };
      const run = await runCliWith({ env }, 'serve');
      expect(run.code).toBe(1);
      expect(run.stdout).toMatch(/This worker cannot listen: bind EADDRINUSE[\s\S]*A worker ended before the service started \(exit code 1\); stopping\./);
    } finally {
      taken.close();
    }
  });

  it('refuses to start with a WORKERS outside 1 to 64, saying so', async () => {
    for (const workers of ['0', '65', 'two']) {
      await expect(startServerProcess({ dbPath: join(dir, 'never.db'), env: { WORKERS: workers } })).rejects.toThrow(
        'Bad configuration: WORKERS: must be a whole number from 1 to 64',
      );
    }
  });
});
