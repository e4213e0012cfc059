/**
 * setNote's `run` on a real store (spec sections 2 "note", 4 "setNote"; docs/behaviour.md "Links", "Limits",
 * "States"): sets or clears a note; a disabled link changes nothing (409 conflict); no change limit.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { changeDestination } from '../../src/tools/change-destination.js';
import { setNote } from '../../src/tools/set-note.js';
import type { Link } from '../../src/tools/schemas.js';
import { problem, ToolHarness, type Actor, type Caller } from '../helpers/tool-harness.js';

let h: ToolHarness;
let alice: Actor;
let made: Link;
beforeEach(async () => {
  h = new ToolHarness();
  alice = await h.person();
  made = await h.link(alice, { note: 'kept' });
});
afterEach(() => h.close());

const note = (value: unknown, code = made.code, caller: Caller = alice) =>
  h.call(setNote, caller, { code, note: value });

describe('setNote', () => {
  it('sets the note and changedAt to now; the rest stays', async () => {
    h.clock.advance(1_000);
    const text = "Spring sale, 50 off! (Q&A) - it's: ok?";
    const expected = { ...made, note: text, changedAt: '2026-11-21T12:00:01.000Z' };
    expect(await note(text)).toEqual(expected);
    expect(await h.stored(made.code)).toEqual(expected);
  });

  it('null clears the note; "" reads back as ""', async () => {
    expect(await note(null)).toMatchObject({ note: null });
    expect(await h.stored(made.code)).toMatchObject({ note: null });
    expect(await note('')).toMatchObject({ note: '' });
    expect(await h.stored(made.code)).toMatchObject({ note: '' });
  });

  it('takes 100 characters counted as code points, letters of any script', async () => {
    for (const text of ['a'.repeat(100), 'é'.repeat(100), '日本'.repeat(50), '𝒜'.repeat(100)]) {
      expect(await note(text)).toMatchObject({ note: text });
    }
  });

  it.each([
    ['<', 'a<b'],
    ['a semicolon', 'semi;colon'],
    ['a double quote', 'say "hi"'],
    ['a newline', 'line\nbreak'],
    ['a tab', 'a\tb'],
    ['a slash', 'a/b'],
    ['an emoji', 'nice 👍'],
  ])('%s: 400 invalid_note at note, unchanged', async (_, text) => {
    expect(await note(text)).toEqual(
      problem(400, 'invalid_note', 'note', "A note is at most 100 characters of letters, numbers, spaces and - _ , . ' ( ) & ! ? :"),
    );
    expect(await h.stored(made.code)).toEqual(made);
  });

  it.each([
    ['101 characters', 'a'.repeat(101)],
    ['101 astral letters', '𝒜'.repeat(101)],
  ])('%s: 400 invalid_note saying the length, unchanged', async (_, text) => {
    expect(await note(text)).toEqual(problem(400, 'invalid_note', 'note', 'A note is at most 100 characters.'));
    expect(await h.stored(made.code)).toEqual(made);
  });

  it('works on a flagged link, which stays flagged', async () => {
    await h.setState(made.code, 'flagged');
    expect(await note('while flagged')).toMatchObject({ note: 'while flagged', state: 'flagged' });
  });

  it('a disabled link: 409 conflict, unchanged', async () => {
    await h.setState(made.code, 'disabled');
    const before = await h.stored(made.code);
    expect(await note('nope')).toEqual(
      problem(409, 'conflict', null, 'The link was disabled by the service and cannot be changed.'),
    );
    expect(await h.stored(made.code)).toEqual(before);
  });

  it('is not held to the change limit, and uses none of it', async () => {
    await h.setLimits({ changesPerHour: 1 });
    for (let i = 0; i < 3; i++) expect(await note(`note ${i}`)).toMatchObject({ note: `note ${i}` });
    expect(await h.call(changeDestination, alice, { code: made.code, destination: 'https://example.org/' })).toMatchObject({
      destination: 'https://example.org/',
    });
  });

  it("another team's link or an unknown code: 404 not_found at code, unchanged", async () => {
    const bob = await h.person();
    const bobs = await h.link(bob, { note: 'bobs' });
    expect(await note('mine', bobs.code)).toEqual(problem(404, 'not_found', 'code', 'No link has that code.'));
    expect(await note('mine', 'Zz9Qq8X')).toEqual(problem(404, 'not_found', 'code'));
    expect(await h.stored(bobs.code)).toEqual(bobs);
  });

  it("a token limited to team A, on a link of team B the person is in: 403 outside_token_record, unchanged", async () => {
    const teamB = await h.team(alice, 'B');
    const inB = await h.link(alice, { note: 'in B' }, teamB);
    const limited = h.caller(alice, { limitedTo: alice.teamId });
    expect(await note('from A', inB.code, limited)).toEqual(problem(403, 'outside_token_record'));
    expect(await h.stored(inB.code)).toEqual(inB);
    expect(await note('ok', made.code, limited)).toMatchObject({ note: 'ok' });
  });

  it.each([
    ['note missing', { code: 'Abc1234' }, 'note', 'note is required.'],
    ['a note not a string', { code: 'Abc1234', note: 5 }, 'note', undefined],
    ['a code of the wrong length', { code: 'Abc123', note: 'x' }, 'code', undefined],
  ])('%s: 400 bad_request naming the param', async (_, params, field, detail) => {
    expect(await h.call(setNote, alice, params)).toEqual(problem(400, 'bad_request', field, detail));
  });

  it('a token without the setNote scope: 403 insufficient_scope', async () => {
    expect(await note('x', made.code, h.caller(alice, { scopes: ['setDestination'] }))).toEqual(
      problem(403, 'insufficient_scope', null, 'The token may not call setNote.'),
    );
  });
});
