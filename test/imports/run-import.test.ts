/**
 * An import's rows made on a real store (issue 26, docs/imports.md): each row passes exactly createLink's rules and
 * gets its own outcome, a peer's slug, title and tags come over when they fit, rows already in the team are skipped,
 * and a dry run answers what the real run does.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ImportRow, UnreadableRow } from '../../src/imports/import-row.js';
import { importRows, type ImportOptions, type RowOutcome } from '../../src/imports/run-import.js';
import { createLink } from '../../src/tools/create-link.js';
import { ToolHarness, type Actor } from '../helpers/tool-harness.js';

let h: ToolHarness;
let alice: Actor;
beforeEach(async () => {
  h = new ToolHarness();
  alice = await h.person();
  await h.store.settings.setLimits({ maxLinksPerTeam: 1_000, perHour: 1_000, perDay: 1_000, firstWeekPerDay: 1_000 });
});
afterEach(() => h.close());

const REAL: ImportOptions = { dryRun: false, liftLimits: false };

/** A row as a reader gives it: a plain CSV's unless `fromPeer`. */
function row(line: number, fields: Partial<ImportRow> = {}): ImportRow {
  return { line, destination: `https://example.com/${line}`, name: null, note: null, tags: [], expiresAt: null, maxClicks: null, fromPeer: false, ...fields };
}

async function run(rows: Array<ImportRow | UnreadableRow>, options = REAL): Promise<RowOutcome[]> {
  const team = (await h.store.teams.get(alice.teamId))!;
  const outcomes: RowOutcome[] = [];
  async function* stream() {
    yield* rows;
  }
  for await (const outcome of importRows(h.ctx, team, stream(), options)) outcomes.push(outcome);
  return outcomes;
}

/** The team's links, oldest first. */
async function links() {
  return (await h.store.links.list(alice.teamId, { state: null, q: null }, { limit: 500, after: null })).reverse();
}

/** What createLink answers for the same fields, as a failed row shows it. */
async function asRow(line: number, fields: Record<string, unknown>): Promise<RowOutcome> {
  const answer = (await h.call(createLink, alice, { team: alice.teamId, ...fields })) as { status: number; code: never; detail: string; field: string | null };
  return { line, outcome: 'failed', status: answer.status, error: answer.code, message: answer.detail, field: answer.field };
}

describe('importing rows', () => {
  it("makes each row's link with every field, in the file's order, each outcome naming its line and code", async () => {
    const outcomes = await run([
      row(2, { name: 'spring', note: 'For the fair', tags: ['fair', 'events'], expiresAt: '2027-06-01T00:00:00.000Z', maxClicks: '500' }),
      row(3),
    ]);
    const [spring, plain] = await links();
    expect(outcomes).toEqual([
      { line: 2, outcome: 'made', code: spring!.code, name: 'spring', leftOut: [] },
      { line: 3, outcome: 'made', code: plain!.code, name: null, leftOut: [] },
    ]);
    expect(spring).toMatchObject({ destination: 'https://example.com/2', name: 'spring', note: 'For the fair', tags: ['events', 'fair'], expiresAt: '2027-06-01T00:00:00.000Z', maxClicks: 500 });
    expect(plain).toMatchObject({ destination: 'https://example.com/3', name: null, note: null, tags: [], expiresAt: null, maxClicks: null });
  });

  it("fails a plain row with exactly the status, code and message createLink gives, and goes on with the next", async () => {
    h.network.privateHosts.add('intranet.example.com');
    const cases: Array<[Partial<ImportRow>, Record<string, unknown>]> = [
      [{ destination: '' }, { destination: '' }],
      [{ destination: 'http://example.com/' }, { destination: 'http://example.com/' }],
      [{ destination: 'https://intranet.example.com/' }, { destination: 'https://intranet.example.com/' }],
      [{ name: 'No Caps' }, { destination: 'https://example.com/x', name: 'No Caps' }],
      [{ name: 'signin' }, { destination: 'https://example.com/x', name: 'signin' }],
      [{ note: 'a | b' }, { destination: 'https://example.com/x', note: 'a | b' }],
      [{ tags: ['Bad Tag'] }, { destination: 'https://example.com/x', tags: ['Bad Tag'] }],
      [{ expiresAt: '2020-01-01T00:00:00Z' }, { destination: 'https://example.com/x', expiresAt: '2020-01-01T00:00:00Z' }],
      [{ maxClicks: '0' }, { destination: 'https://example.com/x', maxClicks: 0 }],
    ];
    const outcomes = await run([...cases.map(([fields], i) => row(i + 2, fields)), row(20)]);
    const expected = [];
    for (const [i, [, fields]] of cases.entries()) expected.push(await asRow(i + 2, fields));
    expect(outcomes.slice(0, -1)).toEqual(expected);
    expect(expected.map((outcome) => (outcome as { error: string }).error)).toEqual([
      'invalid_destination', 'invalid_destination', 'private_destination', 'invalid_name', 'reserved_name', 'invalid_note', 'invalid_tag', 'invalid_expiry', 'invalid_max_clicks',
    ]);
    expect(outcomes.at(-1)).toMatchObject({ line: 20, outcome: 'made' });
  });

  it('fails a maxClicks cell that is no whole number as invalid_max_clicks, and an unreadable row as invalid_import', async () => {
    expect(await run([row(2, { maxClicks: '12abc' }), { line: 3, unreadable: 'The row has 3 cells; the header names 5.' }])).toEqual([
      { line: 2, outcome: 'failed', status: 400, error: 'invalid_max_clicks', message: expect.stringMatching(/whole number/), field: 'maxClicks' },
      { line: 3, outcome: 'failed', status: 400, error: 'invalid_import', message: 'The row has 3 cells; the header names 5.', field: null },
    ]);
    expect(await links()).toEqual([]);
  });

  it("keeps a peer's slug as the name when it fits and is free; else makes the row without it and says why", async () => {
    const bob = await h.person();
    await h.ok(createLink, bob, { team: bob.teamId, destination: 'https://example.com/theirs', name: 'taken' });
    const outcomes = await run([
      row(2, { name: 'launch', fromPeer: true }),
      row(3, { name: 'Ab3', fromPeer: true }),
      row(4, { name: 'taken', fromPeer: true }),
      row(5, { name: 'signin', fromPeer: true }),
    ]);
    const codes = (await links()).map((link) => link.code);
    expect(outcomes).toEqual([
      { line: 2, outcome: 'made', code: codes[0], name: 'launch', leftOut: [] },
      { line: 3, outcome: 'made', code: codes[1], name: null, leftOut: [expect.stringMatching(/^The name "Ab3" left out: A short link name is/)] },
      { line: 4, outcome: 'made', code: codes[2], name: null, leftOut: ['The name "taken" left out: The short link name "taken" is taken.'] },
      { line: 5, outcome: 'made', code: codes[3], name: null, leftOut: ['The name "signin" left out: "signin" is reserved by the service.'] },
    ]);
  });

  it("keeps a peer's title and tags when they fit our rules, leaving out the rest with a word each", async () => {
    const tags = ['ok', 'Not OK', ...Array.from({ length: 12 }, (_, i) => `t${i}`)];
    const [outcome] = await run([row(2, { fromPeer: true, note: 'Fine title', tags }), row(3, { fromPeer: true, note: 'Bad | title' })]);
    expect(outcome).toMatchObject({
      outcome: 'made',
      leftOut: [expect.stringMatching(/^The tag "Not OK" left out: /), expect.stringMatching(/^Tags left out: t9, t10, t11 \(a link has at most 10\)\.$/)],
    });
    const [first, second] = await links();
    expect(first).toMatchObject({ note: 'Fine title', tags: ['ok', 't0', 't1', 't2', 't3', 't4', 't5', 't6', 't7', 't8'].sort() });
    expect(second).toMatchObject({ note: null });
  });

  it('skips a row the team has already (same destination and name), in the file or made before, so a second run makes nothing', async () => {
    const before = await h.ok(createLink, alice, { team: alice.teamId, destination: 'https://example.com/2', name: 'two' });
    const rows = [row(2, { name: 'two' }), row(3), row(4, { destination: 'https://example.com/3' }), row(5, { name: 'slug', fromPeer: true })];
    const first = await run(rows);
    const made = await links();
    expect(first).toEqual([
      { line: 2, outcome: 'duplicate', code: before.code },
      { line: 3, outcome: 'made', code: made[1]!.code, name: null, leftOut: [] },
      { line: 4, outcome: 'duplicate', code: made[1]!.code },
      { line: 5, outcome: 'made', code: made[2]!.code, name: 'slug', leftOut: [] },
    ]);
    const again = await run(rows);
    expect(again).toEqual([2, 3, 4, 5].map((line, i) => ({ line, outcome: 'duplicate', code: [before.code, made[1]!.code, made[1]!.code, made[2]!.code][i] })));
    expect(await links()).toHaveLength(3);
  });

  it('answers a dry run with the outcomes the import will have, codes left out, and makes nothing', async () => {
    await h.store.settings.setLimits({ maxLinksPerTeam: 2 });
    const rows = [row(2, { name: 'one' }), row(3), row(4), row(5, { destination: '' })];
    const dry = await run(rows, { dryRun: true, liftLimits: false });
    expect(dry).toEqual([
      { line: 2, outcome: 'to_make', code: null, name: 'one', leftOut: [] },
      { line: 3, outcome: 'to_make', code: null, name: null, leftOut: [] },
      { line: 4, outcome: 'failed', status: 409, error: 'team_full', message: expect.any(String), field: null },
      (await asRow(5, { destination: '' })),
    ]);
    expect(await links()).toEqual([]);
    const real = await run(rows);
    expect(real.map((outcome) => outcome.outcome)).toEqual(['made', 'made', 'failed', 'failed']);
  });

  it("counts every link made against the team's limits, unless the operator lifts them", async () => {
    await h.store.settings.setLimits({ maxLinksPerTeam: 1 });
    expect((await run([row(2), row(3)])).map((outcome) => outcome.outcome)).toEqual(['made', 'failed']);
    expect((await run([row(3), row(4)], { dryRun: false, liftLimits: true })).map((outcome) => outcome.outcome)).toEqual(['made', 'made']);
  });

  it('makes a file of many batches in order, each row once', async () => {
    const rows = Array.from({ length: 250 }, (_, i) => row(i + 2));
    const outcomes = await run(rows);
    expect(outcomes.map((outcome) => outcome.line)).toEqual(rows.map((r) => r.line));
    expect(outcomes.every((outcome) => outcome.outcome === 'made')).toBe(true);
    expect(new Set((await links()).map((link) => link.destination)).size).toBe(250);
  });
});
