import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliWith } from '../helpers/cli.js';
import { databaseEnv } from '../helpers/database-env.js';
import { call, startServer, type TestServer } from '../helpers/server.js';
import { memberWithTeam, WebVisitor, type WebPage } from '../helpers/web-forms.js';

/**
 * Imports (issue 26, docs/imports.md) through the real surfaces: the operator's `shortlinks import` on the server's
 * database, and a team's Import page over real HTTP (a multipart upload, a preview, a confirmation). The rows' rules
 * are the import's own tests' (test/imports); here, what each surface answers and makes.
 */
let server: TestServer;
let dir: string;
let people = 0;

beforeAll(async () => {
  server = await startServer();
  await server.setLimits({ signupsPerHour: 1_000, teamsPerHour: 1_000, maxLinksPerTeam: 1_000, perHour: 1_000, perDay: 1_000, firstWeekPerDay: 1_000 });
  dir = mkdtempSync(join(tmpdir(), 'shortlinks-import-'));
});
afterAll(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

let names = 0;
/** A plain CSV of three rows, the first named (names are the whole service's: each test takes its own). */
function plainCsv(): { text: string; name: string } {
  const name = `spring-${++names}`;
  return {
    name,
    text: `destination,name,note,tags,expiresAt,maxClicks
https://example.com/spring,${name},For the fair,"fair, events",,500
https://example.com/plain,,,,,
http://example.com/insecure,,,,,
`,
  };
}

/** A file in the test's folder holding `text`. */
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** `shortlinks import ...` on the server's database, its destination checks asking the server's DNS stand-in. */
const cli = (...args: string[]) => runCliWith({ env: { ...databaseEnv(server.dbPath), DNS_SERVERS: server.app.ctx.config.dnsServers.join(',') } }, 'import', ...args);

/** The team's links as listLinks answers them, newest first. */
async function linksOf(token: string, team: string) {
  return (await call(server, 'listLinks', { team, limit: 100 }, token)).body.data as Array<Record<string, unknown>>;
}

describe('shortlinks import', () => {
  it("makes each row's link, prints every row's outcome as it goes and the totals last; --json as JSON lines", async () => {
    const alice = await server.person();
    const { text, name } = plainCsv();
    const path = file('plain.csv', text);
    const run = await cli('--team', alice.teamId, '--format', 'csv', path);
    expect(run.code).toBe(0);
    const [spring, plain] = (await linksOf(alice.token, alice.teamId)).reverse();
    expect(spring).toMatchObject({ destination: 'https://example.com/spring', name, note: 'For the fair', tags: ['events', 'fair'], maxClicks: 500 });
    expect(plain).toMatchObject({ destination: 'https://example.com/plain', name: null, note: null, tags: [] });
    expect(run.stdout.split('\n').slice(1)).toEqual([
      `line 2: made ${spring!.code} named ${name}`,
      `line 3: made ${plain!.code}`,
      'line 4: failed, invalid_destination: The destination must be an https address.',
      'Made 2 links; skipped 0 duplicates; 1 row failed.',
      '',
    ]);

    const again = await cli('--team', alice.teamId, '--format', 'csv', path, '--json');
    expect(again.code).toBe(0);
    expect(again.stdout.trim().split('\n').map((line) => JSON.parse(line))).toEqual([
      { line: 2, outcome: 'duplicate', code: spring!.code },
      { line: 3, outcome: 'duplicate', code: plain!.code },
      { line: 4, outcome: 'failed', status: 400, error: 'invalid_destination', message: 'The destination must be an https address.', field: 'destination' },
      { summary: { made: 0, duplicates: 2, failed: 1, dryRun: false } },
    ]);
    expect(again.stderr).toMatch(/database/i);
  });

  it('--dry-run prints the outcomes the import will have and makes nothing', async () => {
    const alice = await server.person();
    const { text, name } = plainCsv();
    const run = await cli('--team', alice.teamId, '--format', 'csv', file('dry.csv', text), '--dry-run');
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n').slice(1, -1)).toEqual([
      `line 2: to make named ${name}`,
      'line 3: to make',
      'line 4: failed, invalid_destination: The destination must be an https address.',
      'Would make 2 links; skipped 0 duplicates; 1 row failed. Nothing was made: this was a dry run.',
    ]);
    expect(await linksOf(alice.token, alice.teamId)).toEqual([]);
  });

  it("counts the links against the team's limits unless --no-limits", async () => {
    const alice = await server.person();
    await server.setLimits({ maxLinksPerTeam: 1 });
    try {
      const path = file('limits.csv', 'destination\nhttps://example.com/1\nhttps://example.com/2\n');
      const limited = await cli('--team', alice.teamId, '--format', 'csv', path, '--json');
      expect(limited.stdout.trim().split('\n').map((line) => JSON.parse(line).outcome ?? 'summary')).toEqual(['made', 'failed', 'summary']);
      expect(JSON.parse(limited.stdout.split('\n')[1]!)).toMatchObject({ status: 409, error: 'team_full' });
      const lifted = await cli('--team', alice.teamId, '--format', 'csv', path, '--no-limits', '--json');
      expect(lifted.stdout.trim().split('\n').map((line) => JSON.parse(line).outcome ?? 'summary')).toEqual(['duplicate', 'made', 'summary']);
    } finally {
      await server.setLimits({ maxLinksPerTeam: 1_000 });
    }
  });

  it('refuses a bad format, a missing file or one of another format (exit 2), and an unknown team (exit 1), making nothing', async () => {
    const alice = await server.person();
    const good = file('good.csv', plainCsv().text);
    const refused = [
      [await cli('--team', alice.teamId, '--format', 'excel', good), 2, 'shortlinks: the format must be one of bitly, shlink, kutt, yourls, csv: "excel"'],
      [await cli('--team', alice.teamId, '--format', 'csv', join(dir, 'missing.csv')), 2, `shortlinks: cannot read the file ${JSON.stringify(join(dir, 'missing.csv'))}`],
      [await cli('--team', 'team_nosuchteam', '--format', 'csv', good), 1, /^shortlinks: no team has the id "team_nosuchteam" \(/],
      [await cli('--team', alice.teamId, '--format', 'csv', file('nodest.csv', 'name,note\nspring,x\n')), 2, /^shortlinks: .*destination/],
      [await cli('--format', 'csv', good), 2, 'shortlinks: missing --team'],
      [await cli('--team', alice.teamId, '--format', 'csv'), 2, 'shortlinks: import needs FILE'],
    ] as const;
    for (const [run, code, message] of refused) {
      expect({ code: run.code, stdout: run.stdout }).toEqual({ code, stdout: '' });
      expect(run.stderr.trim()).toMatch(typeof message === 'string' ? new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) : message);
    }
    expect(await linksOf(alice.token, alice.teamId)).toEqual([]);
  });
});

describe('each format, from its sample file (test/fixtures/imports)', () => {
  const sample = (format: string) => fileURLToPath(new URL(`../fixtures/imports/${format === 'csv' ? 'plain' : format}.csv`, import.meta.url));
  const lines = (stdout: string) => stdout.trim().split('\n').map((line) => JSON.parse(line));
  /**
   * Each sample's rows as the import makes them: `line made [name]`, or `line code` for a refusal (docs/imports.md
   * says why each sample row is there). A peer's slug that does not fit is left out, and its row made without it.
   */
  const EXPECTED: Record<string, string[]> = {
    bitly: ['2 made spring-sale', '3 made', '4 made', '6 invalid_destination', '7 made'],
    shlink: ['2 made launch-2024', '3 made', '4 made', '6 invalid_destination', '7 made team_page'],
    kutt: ['2 made summer-sale', '3 made', '4 made', '6 invalid_destination'],
    yourls: ['2 made ozh', '3 made yourlsblog', '4 made', '5 made', '7 invalid_destination', '8 made notitle'],
    // Our own export's columns: `docs` is a word the service keeps; the notes hold characters a note may not.
    csv: ['2 reserved_name', '3 made launch-q2', '4 invalid_note', '5 invalid_note', '7 invalid_name'],
  };

  it.each(['bitly', 'shlink', 'kutt', 'yourls', 'csv'])('%s: every row gets its outcome, and a second run makes nothing', async (format) => {
    const alice = await server.person();
    const first = await cli('--team', alice.teamId, '--format', format, sample(format), '--json');
    expect(first.code).toBe(0);
    const outcomes = lines(first.stdout);
    const rows = outcomes.slice(0, -1).map((o) => (o.outcome === 'failed' ? `${o.line} ${o.error}` : `${o.line} ${o.outcome}${o.name ? ` ${o.name}` : ''}`));
    expect(rows).toEqual(EXPECTED[format]);
    const made = (await linksOf(alice.token, alice.teamId)).length;
    expect(outcomes.at(-1).summary.made).toBe(made);
    const again = lines((await cli('--team', alice.teamId, '--format', format, sample(format), '--json')).stdout);
    expect(again.at(-1).summary).toEqual({ made: 0, duplicates: made, failed: outcomes.at(-1).summary.failed, dryRun: false });
  });
});

describe("a team's Import page", () => {
  const csrfOf = (page: WebPage) => /name="_csrf" value="([^"]+)"/.exec(page.body)![1]!;
  const rowsOf = (page: WebPage) =>
    [...page.body.matchAll(/<tr><td>(\d+)<\/td><td>([^<]*)<\/td><td>(.*?)<\/td><\/tr>/g)].map((m) => [Number(m[1]), m[2], m[3]!.replace(/<[^>]+>/g, '')]);
  const statusOf = (page: WebPage) => /role="status">([^<]*)</.exec(page.body)?.[1];
  const errorOf = (page: WebPage, id: string) => unescaped(new RegExp(`<p class="error" id="${id}-error">([^<]*)</p>`).exec(page.body)?.[1]);
  const unescaped = (text: string | undefined) => text?.replaceAll('&quot;', '"').replaceAll('&#39;', "'").replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');

  async function owner() {
    return memberWithTeam(server.url, `import${++people}@example.com`, 'Crew');
  }

  it('previews every row with its outcome, makes nothing, then imports on confirmation; the same file again makes nothing twice', async () => {
    const { visitor, team } = await owner();
    const form = `/teams/${team}/import`;
    const { text, name } = plainCsv();
    expect((await visitor.request('GET', form)).status).toBe(200);
    const preview = await visitor.upload(form, form, { step: 'preview', format: 'csv' }, { name: 'file', filename: 'links.csv', content: text });
    expect(preview.status).toBe(200);
    expect(statusOf(preview)).toBe('Would make 2 links; skipped 0 duplicates; 1 row failed. Nothing was made: this was a dry run.');
    expect(rowsOf(preview)).toEqual([
      [2, 'To be made', ` (named ${name})`],
      [3, 'To be made', ''],
      [4, 'Not made', 'The destination must be an https address.'],
    ]);
    expect(await server.app.ctx.store.links.list(team, { state: null, q: null }, { limit: 10, after: null })).toEqual([]);

    // The confirmation carries the file back in its own form.
    const content = unescaped(/name="content" value="([^"]*)"/.exec(preview.body)![1])!;
    expect(content).toBe(text);
    const confirm = new FormData();
    confirm.set('_csrf', csrfOf(preview));
    confirm.set('step', 'confirm');
    confirm.set('format', 'csv');
    confirm.set('content', content);
    const done = await visitor.post(form, confirm);
    expect(done.status).toBe(200);
    expect(statusOf(done)).toBe('Made 2 links; skipped 0 duplicates; 1 row failed.');
    const made = (await server.app.ctx.store.links.list(team, { state: null, q: null }, { limit: 10, after: null })).reverse();
    expect(made.map((link) => [link.destination, link.name])).toEqual([['https://example.com/spring', name], ['https://example.com/plain', null]]);
    expect(rowsOf(done).map((row) => row.slice(0, 2))).toEqual([[2, 'Made'], [3, 'Made'], [4, 'Not made']]);
    expect(rowsOf(done)[0]![2]).toBe(`${server.url}/${made[0]!.code} (named ${name})`);

    const twice = await visitor.post(form, confirm);
    expect(statusOf(twice)).toBe('Made 0 links; skipped 2 duplicates; 1 row failed.');
  });

  it('says what is wrong beside the field: no file (400), a file of another format (400), one over 5 MB (413), a bad format (400)', async () => {
    const { visitor, team } = await owner();
    const form = `/teams/${team}/import`;
    const none = await visitor.upload(form, form, { step: 'preview', format: 'csv' }, null);
    expect([none.status, errorOf(none, 'f-file')]).toEqual([400, 'Choose the file to import.']);
    const other = await visitor.upload(form, form, { step: 'preview', format: 'csv' }, { name: 'file', filename: 'x.csv', content: 'name\nspring\n' });
    expect(other.status).toBe(400);
    expect(errorOf(other, 'f-file')).toMatch(/destination/);
    const big = await visitor.upload(form, form, { step: 'preview', format: 'csv' }, { name: 'file', filename: 'big.csv', content: Buffer.alloc(5 * 1024 * 1024 + 1, 'a') });
    expect([big.status, errorOf(big, 'f-file')]).toEqual([413, 'The file is larger than 5 MB: import it with shortlinks import, or in parts.']);
    const format = await visitor.upload(form, form, { step: 'preview', format: 'excel' }, { name: 'file', filename: 'x.csv', content: plainCsv().text });
    expect(format.status).toBe(400);
    expect(errorOf(format, 'f-format')).toBe('the format must be one of bitly, shlink, kutt, yourls, csv: "excel"');
    expect(await server.app.ctx.store.links.list(team, { state: null, q: null }, { limit: 10, after: null })).toEqual([]);
  });

  it('is not found for someone outside the team, refuses a form without its CSRF field (403), and sends a stranger to sign in', async () => {
    const { visitor, team } = await owner();
    const form = `/teams/${team}/import`;
    const outsider = (await owner()).visitor;
    expect((await outsider.request('GET', form)).status).toBe(404);
    const theirs = await outsider.upload(`/teams/${(await owner()).team}/import`, form, { step: 'preview', format: 'csv' }, { name: 'file', filename: 'x.csv', content: plainCsv().text });
    expect(theirs.status).toBe(404);
    const forged = new FormData();
    forged.set('step', 'preview');
    forged.set('format', 'csv');
    forged.set('file', new Blob([plainCsv().text]), 'x.csv');
    expect((await visitor.post(form, forged)).status).toBe(403);
    const signedOut = await new WebVisitor(server.url).post(form, forged);
    expect([signedOut.status, signedOut.location]).toEqual([303, '/signin']);
    expect(await server.app.ctx.store.links.list(team, { state: null, q: null }, { limit: 10, after: null })).toEqual([]);
  });
});
