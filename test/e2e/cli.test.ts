/**
 * The operator CLI end to end: the real compiled `dist/src/cli/main.js` (built by `npm test`'s pretest; run
 * `npm run build` first when running this file alone) against a fresh database file, each command line in the CLI
 * host (test/helpers/cli.ts), which answers as a process of its own; the executable itself, as a process, where the
 * process is what is tested (how it exits, what starting costs). The tests run in order and build on each other:
 * people, then a team, members, tokens, links.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/domain/limits.js';
import { packageRoot } from '../../src/paths.js';
import type { Store } from '../../src/store/ports.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { CLI, runCliWith, type Run } from '../helpers/cli.js';

// A test that runs the CLI as a process several times over took up to 2 s a process on a loaded CI runner (two
// cores, four test workers), where six of them came within half of the default 20 s.
vi.setConfig({ testTimeout: 60_000 });

const SET_PASSWORD_URL = /^http:\/\/localhost:4123\/set-password\/[A-Za-z0-9_-]{43}$/;
const DAY_MS = 86_400_000;

const TOKEN = /^sl_[A-Za-z0-9]{16}_[A-Za-z0-9]{40}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const PASSWORD = 'correct horse battery staple';

let dir: string;
let dbPath: string;

/**
 * Runs the CLI on this file's database; never rejects, so exit codes can be asserted. PORT without PUBLIC_URL: the
 * links it prints must then point at `http://localhost:<PORT>`.
 */
function cli(...args: string[]): Promise<Run> {
  return runCliWith({ env: cliEnv() }, ...args);
}

function cliEnv(): Record<string, string | undefined> {
  return { DATABASE_PATH: dbPath, PORT: '4123', PUBLIC_URL: undefined };
}

/**
 * Runs the CLI as `cli` does, under bash, which then reports the CPU time the process used (user and system, from
 * `times`): what starting costs, where a wall clock on a loaded runner measures the other processes as much.
 */
async function cliWithCpu(...args: string[]): Promise<Run & { cpuMs: number }> {
  const script = '"$@"; code=$?; times | tail -n 1 | sed "s/^/cpu: /" >&2; exit $code';
  const run = await runCliWith({ env: cliEnv(), shell: script }, ...args);
  const line = /cpu: (\d+)m([\d.]+)s (\d+)m([\d.]+)s\n$/.exec(run.stderr);
  if (!line) throw new Error(`bash gave no times: ${run.stderr}`);
  const [, userMin, userS, sysMin, sysS] = line.map(Number);
  return { ...run, stderr: run.stderr.slice(0, line.index), cpuMs: ((userMin! + sysMin!) * 60 + userS! + sysS!) * 1000 };
}

/** Runs a command with --json that must succeed; returns the one JSON object it printed. */
async function json(...args: string[]): Promise<Record<string, unknown>> {
  const run = await cli(...args, '--json');
  // The database is named on stderr, so stdout stays one JSON object.
  expect(run.stderr).toBe(`database: ${dbPath}\n`);
  expect(run.code).toBe(0);
  expect(run.stdout.endsWith('\n')).toBe(true);
  expect(run.stdout.trim().split('\n')).toHaveLength(1);
  return JSON.parse(run.stdout) as Record<string, unknown>;
}

/**
 * Runs a command that must fail with `exitCode` and one `shortlinks: ...` line on stderr; returns the reason. A
 * refusal by the data (exit 1) ends by naming the database it looked in; a bad command line (exit 2) does not.
 */
async function refused(exitCode: number, ...args: string[]): Promise<string> {
  const run = await cli(...args, '--json');
  expect(run.code).toBe(exitCode);
  expect(run.stdout).toBe('');
  expect(run.stderr).toMatch(/^shortlinks: [^\n]+\n$/);
  const reason = run.stderr.slice('shortlinks: '.length).trim();
  const where = ` (database: ${dbPath})`;
  if (exitCode === 2) {
    expect(reason).not.toContain(where);
    return reason;
  }
  expect(reason.endsWith(where)).toBe(true);
  return reason.slice(0, -where.length);
}

/** Opens the same database the CLI uses, for what the CLI cannot make (links, reports) or to look inside. */
async function withStore<T>(fn: (store: Store) => Promise<T>): Promise<T> {
  const store = openSqliteStore(dbPath);
  try {
    return await fn(store);
  } finally {
    store.close();
  }
}

function db<T>(fn: (d: Database.Database) => T): T {
  const d = new Database(dbPath, { readonly: true });
  try {
    return fn(d);
  } finally {
    d.close();
  }
}

function column(sql: string, ...params: unknown[]): unknown {
  return db((d) => d.prepare(sql).pluck().get(...params));
}

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first`);
  dir = mkdtempSync(join(tmpdir(), 'shortlinks-cli-'));
  dbPath = join(dir, 'cli.db');
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('shortlinks CLI', () => {
  let ann: { id: string; email: string };
  let bob: { id: string; email: string };
  let teamId: string;
  let tokenId: string;
  let code: string;

  it('starts in under a second (limits show), and says plainly when it had to create the database', async () => {
    expect(existsSync(dbPath)).toBe(false);
    const run = await cliWithCpu('limits', 'show');
    expect(run.code).toBe(0);
    expect(run.cpuMs).toBeLessThan(1000);
    expect(run.stdout).toBe(
      [`created a new database at ${dbPath}`, ...Object.entries(DEFAULT_LIMITS).map(([k, v]) => `${k}: ${v}`)].join('\n') + '\n',
    );
    expect(run.stderr).toBe('');
  });

  it('names the database it used: first line of the human output, stderr with --json', async () => {
    const human = await cli('limits', 'show');
    expect(human.stdout.split('\n')[0]).toBe(`database: ${dbPath}`);
    const json = await cli('limits', 'show', '--json');
    expect(json.stderr).toBe(`database: ${dbPath}\n`);
    expect(JSON.parse(json.stdout)).toEqual({ ...DEFAULT_LIMITS });
  });

  it('exits 0, 1 (refused by the data) and 2 (a bad command line) as a process, as the CLI host answers', async () => {
    const cases: Array<[number, string[], string, string]> = [
      [0, ['block', 'list', '--json'], '{"blocked":[]}\n', `database: ${dbPath}\n`],
      [1, ['person', 'reset', '--email', 'nobody@example.com'], '', `shortlinks: no person has the email nobody@example.com (database: ${dbPath})\n`],
      [2, ['frobnicate'], '', 'shortlinks: unknown command "frobnicate"; run shortlinks --help\n'],
    ];
    for (const [code, args, stdout, stderr] of cases) {
      const own = await runCliWith({ env: cliEnv(), ownProcess: true }, ...args);
      expect({ code: own.code, stdout: own.stdout, stderr: own.stderr }).toEqual({ code, stdout, stderr });
      const hosted = await cli(...args);
      expect({ code: hosted.code, stdout: hosted.stdout, stderr: hosted.stderr }).toEqual({ code, stdout, stderr });
    }
  });

  it('person add --agree-terms --password: the person, email normalized, terms agreed', async () => {
    const person = await json('person', 'add', '--email', ' Ann@Example.COM ', '--password', PASSWORD, '--agree-terms');
    expect(Object.keys(person).sort()).toEqual(['agreedTermsAt', 'createdAt', 'email', 'id', 'operator']);
    expect(person.operator).toBe(false);
    expect(person.id).toMatch(/^person_[A-Za-z0-9]{16}$/);
    expect(person.email).toBe('ann@example.com');
    expect(person.createdAt).toMatch(ISO);
    expect(person.agreedTermsAt).toBe(person.createdAt);
    ann = person as typeof ann;
  });

  it('stores the password only as an scrypt hash', () => {
    const hash = column('SELECT password_hash FROM people WHERE id = ?', ann.id) as string;
    expect(hash).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{86}$/);
    expect(hash).not.toContain(PASSWORD);
  });

  it('person add without --agree-terms or --password (text output): prints a one-time set-password link', async () => {
    const run = await cli('person', 'add', '--email', 'bob@example.com');
    expect(run.code).toBe(0);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toBe(`database: ${dbPath}`);
    expect(lines[1]).toMatch(/^added person person_[A-Za-z0-9]{16} <bob@example.com>$/);
    expect(lines[2]).toBe('not agreed to the terms yet: their tokens work once they agree in the app');
    expect(lines[3]).toMatch(/^they set their password at this link \(one use, within 24 hours, until \d{4}-[^)]+Z\):$/);
    expect(lines[4]).toMatch(SET_PASSWORD_URL);
    expect(lines.slice(5)).toEqual(['']);
    bob = { id: /person_[A-Za-z0-9]{16}/.exec(run.stdout)![0], email: 'bob@example.com' };
    const person = await withStore((store) => store.people.findByEmail('bob@example.com'));
    expect(person).toMatchObject({ id: bob.id, agreedTermsAt: null });
    expect(column('SELECT password_hash FROM people WHERE id = ?', bob.id)).toBeNull();
  });

  it('person add --json without --password: the person and setPasswordUrl; the token kept only as its SHA-256', async () => {
    const before = Date.now();
    const added = await json('person', 'add', '--email', 'cat@example.com');
    expect(Object.keys(added).sort()).toEqual(['agreedTermsAt', 'createdAt', 'email', 'id', 'operator', 'setPasswordExpiresAt', 'setPasswordUrl']);
    expect(added.setPasswordUrl).toMatch(SET_PASSWORD_URL);
    const expires = Date.parse(added.setPasswordExpiresAt as string);
    expect(expires).toBeGreaterThanOrEqual(before + DAY_MS);
    expect(expires).toBeLessThanOrEqual(Date.now() + DAY_MS);
    const token = (added.setPasswordUrl as string).split('/').pop()!;
    const stored = column('SELECT token_hash FROM password_links WHERE person_id = ?', added.id) as Buffer;
    expect(stored.equals(createHash('sha256').update(token).digest())).toBe(true);
    expect(column('SELECT count(*) FROM password_links WHERE person_id = ? AND used_at IS NULL', added.id)).toBe(1);
  });

  it('person add with --password prints no link', async () => {
    const run = await cli('person', 'add', '--email', 'dan@example.com', '--password', PASSWORD);
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain('set-password');
    expect(column('SELECT count(*) FROM password_links p JOIN people ON people.id = p.person_id WHERE email = ?', 'dan@example.com')).toBe(0);
  });

  it('person reset: a fresh link replaces the earlier one; the password ends', async () => {
    const first = column('SELECT token_hash FROM password_links WHERE person_id = ?', bob.id) as Buffer;
    const reset = await json('person', 'reset', '--email', ' BOB@example.com ');
    expect(Object.keys(reset).sort()).toEqual(
      ['agreedTermsAt', 'createdAt', 'email', 'id', 'operator', 'sessionsEnded', 'setPasswordExpiresAt', 'setPasswordUrl'],
    );
    expect(reset).toMatchObject({ id: bob.id, email: 'bob@example.com', sessionsEnded: 0 });
    expect(reset.setPasswordUrl).toMatch(SET_PASSWORD_URL);
    const hashes = db((d) => d.prepare('SELECT token_hash FROM password_links WHERE person_id = ?').pluck().all(bob.id)) as Buffer[];
    expect(hashes).toHaveLength(1);
    expect(hashes[0]!.equals(first)).toBe(false);

    const text = await cli('person', 'reset', '--email', 'dan@example.com');
    expect(text.code).toBe(0);
    expect(text.stdout.split('\n').slice(0, 2)).toEqual([
      `database: ${dbPath}`,
      expect.stringMatching(/^reset the password of person_[A-Za-z0-9]{16} <dan@example.com>; ended 0 web sessions$/),
    ]);
    expect(text.stdout.split('\n')[3]).toMatch(SET_PASSWORD_URL);
    expect(column('SELECT password_hash FROM people WHERE email = ?', 'dan@example.com')).toBeNull();
  });

  it('person reset refuses an unknown email (exit 1, naming the database) and a missing one (exit 2)', async () => {
    expect(await refused(1, 'person', 'reset', '--email', 'nobody@example.com')).toBe('no person has the email nobody@example.com');
    expect(await refused(2, 'person', 'reset')).toBe('missing --email');
    expect(await refused(2, 'person', 'reset', '--email', 'x@example.com', '--password', PASSWORD)).toBe('person reset takes no --password');
  });

  it('person admin makes a person an operator, and --off undoes it; again changes nothing', async () => {
    const made = await json('person', 'admin', '--email', ' ANN@example.com ');
    expect(made).toEqual({ ...ann, operator: true, changed: true });
    expect(column('SELECT operator FROM people WHERE id = ?', ann.id)).toBe(1);
    const again = await cli('person', 'admin', '--email', 'ann@example.com');
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(`database: ${dbPath}\nann@example.com already was an operator; nothing changed\n`);
    const off = await cli('person', 'admin', '--email', 'ann@example.com', '--off');
    expect(off.stdout).toBe(`database: ${dbPath}\nann@example.com is not an operator now\n`);
    expect(await json('person', 'admin', '--email', 'ann@example.com', '--off')).toMatchObject({ operator: false, changed: false });
    expect(column('SELECT operator FROM people WHERE id = ?', ann.id)).toBe(0);
    const on = await cli('person', 'admin', '--email', 'bob@example.com');
    expect(on.stdout).toBe(`database: ${dbPath}\nbob@example.com is an operator now\n`);
    expect(await json('person', 'admin', '--email', 'bob@example.com', '--off')).toMatchObject({ id: bob.id, operator: false, changed: true });
  });

  it('person admin refuses an unknown email (exit 1), a missing or bad one and a value for --off (exit 2)', async () => {
    expect(await refused(1, 'person', 'admin', '--email', 'nobody@example.com')).toBe('no person has the email nobody@example.com');
    expect(await refused(2, 'person', 'admin')).toBe('missing --email');
    expect(await refused(2, 'person', 'admin', '--email', 'not-an-email')).toBe('not an email address: "not-an-email"');
    expect(await refused(2, 'person', 'admin', '--email', 'ann@example.com', '--off=yes')).toBe('--off takes no value');
    expect(await refused(2, 'person', 'add', '--email', 'x@example.com', '--off')).toBe('person add takes no --off');
  });

  it('person add refuses an email that exists, whatever its case (exit 1)', async () => {
    expect(await refused(1, 'person', 'add', '--email', 'ANN@example.com')).toBe(
      'a person with the email ann@example.com already exists',
    );
  });

  it('person add refuses a bad email or a short password, and never prints the password (exit 2)', async () => {
    expect(await refused(2, 'person', 'add', '--email', 'not-an-email')).toBe('not an email address: "not-an-email"');
    const reason = await refused(2, 'person', 'add', '--email', 'cy@example.com', '--password', 'short');
    expect(reason).toBe('--password must be 8 to 1024 characters');
    expect(reason).not.toContain('short"');
  });

  it('team add: the team, its owner its first member', async () => {
    const team = await json('team', 'add', '--name', ' Ann & co ', '--owner', 'ann@example.com');
    expect(Object.keys(team).sort()).toEqual(['createdAt', 'id', 'name']);
    expect(team.id).toMatch(/^team_[A-Za-z0-9]{16}$/);
    expect(team.name).toBe('Ann & co');
    expect(team.createdAt).toMatch(ISO);
    teamId = team.id as string;
    expect(await withStore((store) => store.teams.isMember(teamId, ann.id))).toBe(true);
  });

  it('team add refuses an unknown owner (exit 1) and an empty name (exit 2)', async () => {
    expect(await refused(1, 'team', 'add', '--name', 'x', '--owner', 'nobody@example.com')).toBe(
      'no person has the email nobody@example.com',
    );
    await refused(2, 'team', 'add', '--name', '  ', '--owner', 'ann@example.com');
  });

  it('member add: adds, and says so when already a member', async () => {
    expect(await json('member', 'add', '--team', teamId, '--email', 'bob@example.com')).toEqual({
      team: teamId,
      person: bob.id,
      member: true,
      changed: true,
    });
    expect(await json('member', 'add', '--team', teamId, '--email', 'bob@example.com')).toEqual({
      team: teamId,
      person: bob.id,
      member: true,
      changed: false,
    });
  });

  it('member add refuses an unknown team or email (exit 1)', async () => {
    expect(await refused(1, 'member', 'add', '--team', 'team_nope', '--email', 'bob@example.com')).toBe(
      'no team has the id "team_nope"',
    );
    await refused(1, 'member', 'add', '--team', teamId, '--email', 'nobody@example.com');
  });

  it('token create --scopes --limited: the record and the token, once', async () => {
    const created = await json(
      'token', 'create', '--email', 'bob@example.com', '--team', teamId, '--scopes', 'createLink, listLinks,reportLink', '--limited',
    );
    expect(Object.keys(created).sort()).toEqual(
      ['createdAt', 'expiresAt', 'id', 'label', 'lastUsedAt', 'limited', 'personId', 'revokedAt', 'scopes', 'teamId', 'token'],
    );
    expect(created.token).toMatch(TOKEN);
    expect(created.id).toBe(`tok_${(created.token as string).slice(3, 19)}`);
    expect(created).toMatchObject({
      personId: bob.id,
      teamId,
      label: null,
      scopes: ['createLink', 'listLinks', 'reportLink'],
      limited: true,
      lastUsedAt: null,
      expiresAt: null,
      revokedAt: null,
    });
    tokenId = created.id as string;
    // Only the secret's SHA-256 is kept.
    const stored = column('SELECT secret_hash FROM tokens WHERE id = ?', tokenId) as Buffer;
    expect(stored).toHaveLength(32);
    expect(stored.toString('latin1')).not.toContain((created.token as string).slice(20));
  });

  it('token create without --scopes: every operation, not limited', async () => {
    const created = await json('token', 'create', '--email', 'ann@example.com', '--team', teamId);
    expect(created.token).toMatch(TOKEN);
    expect(created).toMatchObject({ personId: ann.id, teamId, scopes: null, limited: false });
  });

  it('token create --label: kept trimmed, named in the text output', async () => {
    const created = await json('token', 'create', '--email', 'ann@example.com', '--team', teamId, '--label', '  CI deploys  ');
    expect(created.label).toBe('CI deploys');
    expect(await withStore(async (store) => (await store.tokens.grant(created.id as string))!.label)).toBe('CI deploys');
    const text = await cli('token', 'create', '--email', 'ann@example.com', '--team', teamId, '--label', 'cron');
    expect(text.code).toBe(0);
    expect(text.stdout.split('\n')[1]).toMatch(/^created token tok_[A-Za-z0-9]{16} "cron" for person_[A-Za-z0-9]{16} in team_/);
  });

  it('token create refuses a label over 100 characters or with a control character (exit 2)', async () => {
    const rule = '--label: A label is at most 100 characters, without control characters.';
    expect(await refused(2, 'token', 'create', '--email', 'ann@example.com', '--team', teamId, '--label', 'x'.repeat(101))).toBe(rule);
    expect(await refused(2, 'token', 'create', '--email', 'ann@example.com', '--team', teamId, '--label', 'new\nline')).toBe(rule);
  });

  it('token create refuses a scope that is not an operation or MCP tool name (exit 2)', async () => {
    const reason = await refused(2, 'token', 'create', '--email', 'ann@example.com', '--team', teamId, '--scopes', 'createLink,deleteEverything');
    expect(reason).toMatch(/^unknown scope "deleteEverything"; scopes are listTeams, /);
    await refused(2, 'token', 'create', '--email', 'ann@example.com', '--team', teamId, '--scopes', ' , ');
  });

  it('token revoke: the record with revokedAt, no secret; again changes nothing', async () => {
    const revoked = await json('token', 'revoke', tokenId);
    expect(revoked).not.toHaveProperty('token');
    expect(revoked).not.toHaveProperty('secretHash');
    expect(revoked).toMatchObject({ id: tokenId, personId: bob.id, teamId, limited: true });
    expect(revoked.revokedAt).toMatch(ISO);
    expect(await json('token', 'revoke', tokenId)).toEqual(revoked);
  });

  it('token revoke refuses an unknown id (exit 1)', async () => {
    expect(await refused(1, 'token', 'revoke', 'tok_AAAAAAAAAAAAAAAA')).toBe('no token has the id "tok_AAAAAAAAAAAAAAAA"');
  });

  it('member remove; then token create for them is refused (exit 1)', async () => {
    expect(await json('member', 'remove', '--team', teamId, '--email', 'bob@example.com')).toEqual({
      team: teamId,
      person: bob.id,
      member: false,
      changed: true,
    });
    expect(await refused(1, 'token', 'create', '--email', 'bob@example.com', '--team', teamId)).toBe(
      `bob@example.com is not a member of team ${teamId}`,
    );
  });

  it("member remove refuses the team's only owner (exit 1), who stays", async () => {
    expect(await refused(1, 'member', 'remove', '--team', teamId, '--email', 'ann@example.com')).toBe(
      `ann@example.com is the only owner of team ${teamId}, and a team keeps an owner while it exists: make another member an owner first (member promote)`,
    );
    expect(await withStore((store) => store.teams.isMember(teamId, ann.id))).toBe(true);
  });

  it('member promote: makes a member an owner, says so when already one, refuses someone not in the team (exit 1)', async () => {
    expect((await json('member', 'add', '--team', teamId, '--email', 'bob@example.com')).changed).toBe(true);
    expect(await json('member', 'promote', '--team', teamId, '--email', 'bob@example.com')).toEqual({
      team: teamId, person: bob.id, role: 'owner', changed: true,
    });
    const again = await cli('member', 'promote', '--team', teamId, '--email', 'bob@example.com');
    expect(again.stdout.split('\n')[1]).toBe(`${bob.id} already was an owner of ${teamId}`);
    expect(await refused(1, 'member', 'promote', '--team', teamId, '--email', 'dan@example.com')).toBe(
      `dan@example.com is not a member of team ${teamId}`,
    );
    expect(await refused(1, 'member', 'promote', '--team', 'team_nope', '--email', 'bob@example.com')).toBe('no team has the id "team_nope"');
    expect((await withStore((store) => store.teams.members(teamId))).map((m) => m.role)).toEqual(['owner', 'owner']);
  });

  it('limits show: the defaults on a fresh database', async () => {
    expect(await json('limits', 'show')).toEqual({ ...DEFAULT_LIMITS });
  });

  it('limits set: changes the given limits only', async () => {
    const expected = { ...DEFAULT_LIMITS, perHour: 5, callsPerMinute: 120, firstWeekPerDay: 3 };
    const set = await json('limits', 'set', '--per-hour', '5', '--calls-per-minute', '120', '--first-week-per-day', '3');
    expect(set).toEqual(expected);
    expect(await json('limits', 'show')).toEqual(expected);
  });

  it('limits set refuses a value that is not a positive whole number, and changes nothing (exit 2)', async () => {
    const before = await json('limits', 'show');
    expect(await refused(2, 'limits', 'set', '--per-day', '50', '--team-links', '2.5')).toBe(
      '--team-links must be a whole number from 1 to 1000000000: "2.5"',
    );
    // Several bad values: the one line names the first in the order of the flags, as it always did.
    expect(await refused(2, 'limits', 'set', '--teams-per-hour', 'x', '--per-hour', '0', '--per-day', '50')).toBe(
      '--per-hour must be a whole number from 1 to 1000000000: "0"',
    );
    await Promise.all(['0', '-3', 'ten', '', '1e3'].map((bad) => refused(2, 'limits', 'set', `--per-day=${bad}`)));
    await refused(2, 'limits', 'set');
    expect(await refused(2, 'limits', 'set', '--preset', 'public', '--per-day', '50')).toBe('--preset must be one of private: "public"');
    expect(await json('limits', 'show')).toEqual(before);
  });

  it('limits set --analytics-days keeps click analytics at least 30 days (the spec\'s window): 29 is refused, 30 kept', async () => {
    const before = await json('limits', 'show');
    expect(before.analyticsDays).toBe(400);
    expect(await refused(2, 'limits', 'set', '--analytics-days', '29')).toBe('--analytics-days must be a whole number from 30 to 1000000000: "29"');
    expect(await json('limits', 'show')).toEqual(before);
    expect(await json('limits', 'set', '--analytics-days', '30')).toEqual({ ...before, analyticsDays: 30 });
    expect((await cli('limits', 'show')).stdout).toContain('analyticsDays: 30');
    await json('limits', 'set', '--analytics-days', '400');
  });

  it('block add normalizes the domain; block list; block remove', async () => {
    expect(await json('block', 'add', 'Example.COM.')).toEqual({ domain: 'example.com', blocked: true, changed: true });
    expect(await json('block', 'add', 'example.com')).toEqual({ domain: 'example.com', blocked: true, changed: false });
    expect(await json('block', 'add', 'bücher.de')).toEqual({ domain: 'xn--bcher-kva.de', blocked: true, changed: true });
    expect(await json('block', 'list')).toEqual({ blocked: ['example.com', 'xn--bcher-kva.de'] });
    expect(await json('block', 'remove', 'EXAMPLE.com')).toEqual({ domain: 'example.com', blocked: false, changed: true });
    expect(await json('block', 'list')).toEqual({ blocked: ['xn--bcher-kva.de'] });
  });

  it('block add refuses what is not a domain name (exit 2)', async () => {
    expect(await refused(2, 'block', 'add', 'https://evil.com/x')).toBe('not a domain name: "https://evil.com/x"');
    await refused(2, 'block', 'add', '10.0.0.1');
  });

  it('link flag, reports list, reviews list, disable, restore', async () => {
    const link = await withStore(async (store) => {
      const made = await store.links.create(
        { teamId, teamCreatedAt: new Date(), destination: 'https://docs.example.org/a', name: null, note: null },
        DEFAULT_LIMITS,
        new Date(),
      );
      await store.moderation.report(made.id, bob.id, 'spam', DEFAULT_LIMITS, new Date());
      return made;
    });
    code = link.code;

    const reports = await json('reports', 'list');
    expect(reports).toEqual({
      // bob was added with `person add`, so his report counts towards flagging.
      reports: [{ id: expect.stringMatching(/^report_/), linkCode: code, personId: bob.id, reason: 'spam', createdAt: expect.stringMatching(ISO), counts: true }],
    });

    const flagged = await json('link', 'flag', code);
    expect(flagged).toMatchObject({ id: link.id, code, teamId, state: 'flagged', destination: 'https://docs.example.org/a' });
    expect(flagged).not.toHaveProperty('seq');

    await withStore((store) => store.moderation.askForReview(link.id, ann.id, 'it is fine', new Date()));
    expect(await json('reviews', 'list')).toEqual({
      reviews: [{ id: expect.stringMatching(/^review_/), linkCode: code, personId: ann.id, reason: 'it is fine', createdAt: expect.stringMatching(ISO) }],
    });

    expect(await json('link', 'disable', code)).toMatchObject({ code, state: 'disabled' });
    expect(await json('link', 'restore', code)).toMatchObject({ code, state: 'active' });
    // Restoring resolves the link's open reports and reviews.
    expect(await json('reports', 'list')).toEqual({ reports: [] });
    expect(await json('reviews', 'list')).toEqual({ reviews: [] });
  });

  it('link flag refuses an unknown code (exit 1)', async () => {
    expect(await refused(1, 'link', 'flag', 'Nope123')).toBe('no link has the code "Nope123"');
  });

  it('refuses an unknown command, subcommand, flag, or a missing or extra argument (exit 2)', async () => {
    expect(await refused(2, 'frobnicate')).toBe('unknown command "frobnicate"; run shortlinks --help');
    expect(await refused(2, 'link', 'delete', 'Abc1234')).toBe('unknown command "link delete"; link takes flag, disable, restore');
    expect(await refused(2, 'person', 'add', '--email', 'x@example.com', '--admin')).toBe('unknown option --admin');
    expect(await refused(2, 'limits', 'show', '--team', teamId)).toBe('limits show takes no --team');
    expect(await refused(2, 'person', 'add')).toBe('missing --email');
    expect(await refused(2, 'team', 'add', '--name')).toBe('--name needs a value');
    expect(await refused(2, 'token', 'revoke')).toBe('token revoke needs TOKEN_ID');
    expect(await refused(2, 'block', 'list', 'extra')).toBe('unexpected argument "extra"');
  });

  it('--help prints the usage', async () => {
    const run = await cli('--help');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Usage: shortlinks <command>/);
    expect(run.stdout).toContain('limits set [--preset private] [--team-links N]');
  });
});

describe('shortlinks CLI run from another folder', () => {
  // A relative DATABASE_PATH names a file of the installation (the folder of package.json), never of the current
  // folder; this one is unique to the run and removed afterwards.
  const relative = `data/cli-test-${process.pid}-${Date.now()}.db`;
  const installed = join(packageRoot, relative);
  let elsewhere: string;

  beforeAll(() => {
    elsewhere = mkdtempSync(join(tmpdir(), 'shortlinks-cwd-'));
  });
  afterAll(() => {
    rmSync(elsewhere, { recursive: true, force: true });
    for (const suffix of ['', '-wal', '-shm']) rmSync(installed + suffix, { force: true });
  });

  const run = (...args: string[]) => runCliWith({ env: { DATABASE_PATH: relative }, cwd: elsewhere }, ...args);

  it("uses the installation's database, creates nothing in the current folder, and says which file it used", async () => {
    const first = await run('limits', 'show');
    expect(first.code).toBe(0);
    expect(first.stdout.split('\n')[0]).toBe(`created a new database at ${installed}`);
    expect(existsSync(installed)).toBe(true);
    expect(readdirSync(elsewhere)).toEqual([]);

    const again = await run('person', 'add', '--email', 'far@example.com', '--password', PASSWORD, '--json');
    expect(again.code).toBe(0);
    expect(again.stderr).toBe(`database: ${installed}\n`);
    expect(JSON.parse(again.stdout)).toMatchObject({ email: 'far@example.com' });
    expect(readdirSync(elsewhere)).toEqual([]);
  });
});
