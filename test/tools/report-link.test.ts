/**
 * reportLink's `run` on a real store (DECISIONS.md "States"; docs/behaviour.md "States"): any signed-in person
 * reports any live link by its code; reports of enough different established people flag an active link. Sign-up
 * is open, so only established people count: added by the operator, or 72 hours old, agreed and in a team.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deleteLink } from '../../src/tools/delete-link.js';
import { reportLink } from '../../src/tools/report-link.js';
import type { Link } from '../../src/tools/schemas.js';
import { problem, ToolHarness, type Actor, type Caller } from '../helpers/tool-harness.js';

const HOUR = 3_600_000;

let h: ToolHarness;
let owner: Actor;
let made: Link;
beforeEach(async () => {
  h = new ToolHarness();
  owner = await h.person({ teamName: 'Victims' });
  made = await h.link(owner);
});
afterEach(() => h.close());

const report = (caller: Caller, reason = 'phishing', code = made.code) =>
  h.call(reportLink, caller, { code, reason });
const established = () => h.person({ addedByOperator: true });
const stateOf = async () => (await h.stored(made.code))?.state;

describe('reportLink', () => {
  it("reports another team's link: answers {code, reported: true} and keeps the report for the operator", async () => {
    const reporter = await h.person();
    expect(await report(reporter, 'spam')).toEqual({ code: made.code, reported: true });
    expect(await h.store.moderation.openReports((await h.store.settings.limits()), h.clock.now())).toEqual([
      {
        id: expect.stringMatching(/^report_/),
        linkCode: made.code,
        personId: reporter.personId,
        reason: 'spam',
        createdAt: '2026-11-21T12:00:00.000Z',
        counts: false,
      },
    ]);
  });

  it('reports of 3 different established people flag an active link; 2 do not', async () => {
    await report(await established());
    await report(await established());
    expect(await stateOf()).toBe('active');
    await report(await established());
    expect(await stateOf()).toBe('flagged');
  });

  it('one person reporting many times is one report, the last reason kept', async () => {
    const reporter = await established();
    for (const reason of ['phishing', 'spam', 'malware']) await report(reporter, reason);
    h.clock.advance(1); // reports are listed oldest first
    await report(await established());
    expect(await stateOf()).toBe('active');
    const reports = await h.store.moderation.openReports((await h.store.settings.limits()), h.clock.now());
    expect(reports.map((kept) => [kept.personId, kept.reason])).toEqual([
      [reporter.personId, 'malware'],
      [expect.any(String), 'phishing'],
    ]);
  });

  it('people who signed up just now do not count, however many', async () => {
    for (let i = 0; i < 5; i++) await report(await h.person());
    expect(await stateOf()).toBe('active');
  });

  it('people count once 72 hours old (agreed, in a team); the next report against the link flags it', async () => {
    const fresh = [await h.person(), await h.person(), await h.person()];
    for (const person of fresh) await report(person);
    h.clock.advance(72 * HOUR - 1);
    await report(fresh[0]!, 'still phishing');
    expect(await stateOf()).toBe('active');
    h.clock.advance(1);
    await report(fresh[1]!, 'still phishing');
    expect(await stateOf()).toBe('flagged');
  });

  it('a person who has not agreed to the terms never counts', async () => {
    const unagreed = await h.person({ agreed: false });
    await report(unagreed);
    await report(await established());
    h.clock.advance(100 * HOUR);
    await report(await established());
    expect(await stateOf()).toBe('active');
  });

  it("follows the operator's limits: reports to flag, hours to be established", async () => {
    await h.setLimits({ reportsToFlag: 1 });
    await report(await h.person());
    expect(await stateOf()).toBe('active');
    await h.setLimits({ establishedAfterHours: 0 });
    await report(await h.person());
    expect(await stateOf()).toBe('flagged');
  });

  it('a disabled link stays disabled; a flagged one stays flagged', async () => {
    await h.setLimits({ reportsToFlag: 1 });
    await h.setState(made.code, 'disabled');
    expect(await report(await established())).toEqual({ code: made.code, reported: true });
    expect(await stateOf()).toBe('disabled');
  });

  it('the team may report its own link', async () => {
    expect(await report(owner)).toEqual({ code: made.code, reported: true });
  });

  it('an unknown code or a deleted link: 404 not_found at code', async () => {
    const reporter = await h.person();
    expect(await report(reporter, 'spam', 'Zz9Qq8X')).toEqual(problem(404, 'not_found', 'code', 'No link has that code.'));
    await h.ok(deleteLink, owner, { code: made.code });
    expect(await report(reporter)).toEqual(problem(404, 'not_found', 'code'));
  });

  it("a token limited to its team: another team's link is 403 outside_token_record; its own team's is reported", async () => {
    const reporter = await h.person();
    const limited = h.caller(reporter, { limitedTo: reporter.teamId });
    expect(await report(limited)).toEqual(problem(403, 'outside_token_record'));
    const own = await h.link(reporter);
    expect(await report(limited, 'test', own.code)).toEqual({ code: own.code, reported: true });
  });

  it.each([
    ['an empty reason', { code: 'Abc1234', reason: '' }, 'reason', 'reason is empty.'],
    ['a reason over 500 characters', { code: 'Abc1234', reason: 'x'.repeat(501) }, 'reason', 'reason is longer than 500 characters.'],
    ['no reason', { code: 'Abc1234' }, 'reason', 'reason is required.'],
    ['a code of the wrong length', { code: 'Abc123', reason: 'spam' }, 'code', undefined],
  ])('%s: 400 bad_request naming the param', async (_, params, field, detail) => {
    expect(await h.call(reportLink, owner, params)).toEqual(problem(400, 'bad_request', field, detail));
  });

  it('a token without the reportLink scope: 403 insufficient_scope', async () => {
    expect(await report(h.caller(owner, { scopes: ['getLink'] }))).toEqual(
      problem(403, 'insufficient_scope', null, 'The token may not call reportLink.'),
    );
  });
});
