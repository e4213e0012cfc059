import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, runCliWith } from '../helpers/cli.js';
import { databaseEnv } from '../helpers/database-env.js';
import { call, startServer, type Actor, type TestServer } from '../helpers/server.js';
import { memberWithTeam, WebVisitor } from '../helpers/web-forms.js';

/**
 * Exports of a team's links (issue 26, docs/behaviour.md "Export"): `shortlinks export` and the team page's
 * downloads give every field of every link as listLinks does, CSV cells that would start a formula neutralised,
 * and a CSV export imports back as the same links.
 */
let server: TestServer;
let dir: string;
let people = 0;

beforeAll(async () => {
  server = await startServer();
  await server.setLimits({ signupsPerHour: 1_000, teamsPerHour: 1_000 });
  dir = mkdtempSync(join(tmpdir(), 'shortlinks-export-'));
});
afterAll(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

const COLUMNS = ['id', 'code', 'name', 'destination', 'note', 'state', 'createdAt', 'changedAt', 'shortUrl', 'nameUrl', 'expiresAt', 'maxClicks', 'hasPassword', 'tags', 'forwardQuery'];

/** Three links with every kind of field: options, a password, tags, a note a spreadsheet would run as a formula. */
async function linksOf(alice: Pick<Actor, 'teamId' | 'token'>): Promise<Array<Record<string, unknown>>> {
  const name = `exported-${++people}`;
  const made = [
    await call(server, 'createLink', { team: alice.teamId, destination: 'https://example.com/a?x=1,2', name, note: '-10 off, for now', tags: ['sale', 'q1'], maxClicks: 50, expiresAt: '2027-01-01T00:00:00.000Z', password: 'open sesame', forwardQuery: true }, alice.token),
    await call(server, 'createLink', { team: alice.teamId, destination: 'https://example.com/"quoted"' }, alice.token),
  ];
  for (const reply of made) expect(reply.status).toBe(200);
  return (await call(server, 'listLinks', { team: alice.teamId, limit: 100 }, alice.token)).body.data;
}

/** A CSV export's records as the API's Links: the cells read back into their types. */
function readCsv(text: string): Array<Record<string, unknown>> {
  const [header, ...records] = parse(text, { relax_column_count: false }) as string[][];
  expect(header).toEqual(COLUMNS);
  return records.map((cells) => {
    const cell = (column: string) => cells[COLUMNS.indexOf(column)]!;
    const orNull = (column: string) => (cell(column) === '' ? null : cell(column).replace(/^'(?=[=+\-@\t\r])/, ''));
    return {
      ...Object.fromEntries(COLUMNS.map((column) => [column, orNull(column)])),
      maxClicks: cell('maxClicks') === '' ? null : Number(cell('maxClicks')),
      hasPassword: cell('hasPassword') === 'true',
      forwardQuery: cell('forwardQuery') === 'true',
      tags: cell('tags') === '' ? [] : cell('tags').split(' '),
    };
  });
}

describe('shortlinks export', () => {
  it('prints the CSV alone on stdout: every field of every link as listLinks has it, formulas neutralised', async () => {
    const alice = await server.person();
    const listed = await linksOf(alice);
    const run = await runCli(server.dbPath, 'export', '--team', alice.teamId);
    expect(run.code).toBe(0);
    expect(run.stdout.split('\r\n')[0]).toBe(COLUMNS.join(','));
    // The note starts with "-": a spreadsheet would take it for a formula, so it is written after a quote.
    expect(run.stdout).toContain(`,"'-10 off, for now",`);
    expect(run.stdout).not.toContain('open sesame');
    expect(readCsv(run.stdout)).toEqual(listed);
    expect(run.stderr).toMatch(/database/i);
  });

  it('--format jsonl prints each link as the API answers it, one a line', async () => {
    const alice = await server.person();
    const listed = await linksOf(alice);
    const run = await runCli(server.dbPath, 'export', '--team', alice.teamId, '--format', 'jsonl');
    expect(run.code).toBe(0);
    expect(run.stdout.trim().split('\n').map((line) => JSON.parse(line))).toEqual(listed);
  });

  it('refuses a format it does not write (exit 2) and a team that does not exist (exit 1)', async () => {
    const bad = await runCli(server.dbPath, 'export', '--team', 'team_x', '--format', 'xlsx');
    expect([bad.code, bad.stdout, bad.stderr.trim()]).toEqual([2, '', 'shortlinks: the format must be csv or jsonl: "xlsx"']);
    const unknown = await runCli(server.dbPath, 'export', '--team', 'team_nosuchteam');
    expect([unknown.code, unknown.stdout]).toEqual([1, '']);
    expect(unknown.stderr).toMatch(/^shortlinks: no team has the id "team_nosuchteam" \(/);
  });

  it('reads back: a CSV export imported into another team makes the same links', async () => {
    const alice = await server.person();
    const listed = await linksOf(alice);
    const path = join(dir, 'export.csv');
    writeFileSync(path, (await runCli(server.dbPath, 'export', '--team', alice.teamId)).stdout);
    // The names are the whole service's, so the import into another team refuses them; the first run into the
    // same team skips every row as a duplicate.
    const again = await runCliWith({ env: { ...databaseEnv(server.dbPath), DNS_SERVERS: server.app.ctx.config.dnsServers.join(',') } }, 'import', '--team', alice.teamId, '--format', 'csv', path, '--json');
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout.trim().split('\n').at(-1)!)).toEqual({ summary: { made: 0, duplicates: listed.length, failed: 0, dryRun: false } });
  });
});

describe("the team page's downloads", () => {
  it('give members the CSV and the JSON lines as attachments; a stranger finds nothing', async () => {
    const { visitor, team } = await memberWithTeam(server.url, `export${++people}@example.com`, 'Crew');
    const page = await visitor.request('GET', `/teams/${team}`);
    expect(page.body).toContain(`href="/teams/${team}/links.csv"`);
    expect(page.body).toContain(`href="/teams/${team}/import"`);
    const owner = (await server.app.ctx.store.teams.members(team))[0]!;
    const listed = await linksOf({ teamId: team, token: await server.token(owner.personId, team) });
    const csv = await visitor.request('GET', `/teams/${team}/links.csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toMatch(new RegExp(`^attachment; filename="${team}-links-\\d{4}-\\d{2}-\\d{2}\\.csv"$`));
    expect(readCsv(csv.body)).toEqual(listed);
    const jsonl = await visitor.request('GET', `/teams/${team}/links.jsonl`);
    expect(jsonl.headers.get('content-type')).toBe('application/jsonl; charset=utf-8');
    expect(jsonl.body.trim().split('\n').map((line) => JSON.parse(line))).toEqual(listed);

    const stranger = (await memberWithTeam(server.url, `export${++people}@example.com`, 'Other')).visitor;
    expect((await stranger.request('GET', `/teams/${team}/links.csv`)).status).toBe(404);
    const signedOut = await new WebVisitor(server.url).request('GET', `/teams/${team}/links.jsonl`);
    expect(signedOut.status).toBe(303);
  });
});
