import { describe, expect, it } from 'vitest';
import { createLink, expectOk, getLink, server, setState, useLinksServer } from '../helpers/api-links.js';
import { call, expectProblem } from '../helpers/server.js';

/**
 * setNote over the real HTTP API: sets or clears a note; a disabled link changes nothing; no change limit.
 * Spec: short-link-api-v1.md; our decisions: docs/behaviour.md. The server, with a real SQLite file, is shared by
 * the file (test/helpers/api-links.ts): each test makes its own person and team; limits are put back after each.
 */

useLinksServer();

describe('setNote', () => {
  it('sets a note and changedAt', async () => {
    const alice = await server.person();
    const made = await createLink(alice);
    server.clock.advance(1_000);
    const note = "Spring sale, 50 off! (Q&A) - it's: ok?";
    const reply = await call(server, 'setNote', { code: made.code, note }, alice.token);
    expectOk(reply);
    const expected = { ...made, note, changedAt: server.clock.now().toISOString() };
    expect(reply.body).toEqual(expected);
    expect((await getLink(alice, made.code)).body).toEqual(expected);
  });

  it('null clears the note', async () => {
    const alice = await server.person();
    const made = await createLink(alice, { note: 'to clear' });
    const reply = await call(server, 'setNote', { code: made.code, note: null }, alice.token);
    expectOk(reply);
    expect(reply.body.note).toBeNull();
    expect((await getLink(alice, made.code)).body.note).toBeNull();
  });

  it('"" reads back as ""', async () => {
    const alice = await server.person();
    const made = await createLink(alice, { note: 'something' });
    const reply = await call(server, 'setNote', { code: made.code, note: '' }, alice.token);
    expectOk(reply);
    expect(reply.body.note).toBe('');
    expect((await getLink(alice, made.code)).body.note).toBe('');
  });

  it('accepts 100 characters, counted as code points, letters of any script', async () => {
    const alice = await server.person();
    const made = await createLink(alice);
    for (const note of ['a'.repeat(100), 'é'.repeat(100), '日本'.repeat(50), '𝒜'.repeat(100)]) {
      const reply = await call(server, 'setNote', { code: made.code, note }, alice.token);
      expectOk(reply);
      expect(reply.body.note).toBe(note);
    }
  });

  it.each([
    ['101 characters', 'a'.repeat(101)],
    ['101 astral letters', '𝒜'.repeat(101)],
    ['<', 'a<b'],
    ['semicolon', 'semi;colon'],
    ['double quote', 'say "hi"'],
    ['newline', 'line\nbreak'],
    ['tab', 'a\tb'],
    ['slash', 'a/b'],
    ['emoji', 'nice 👍'],
  ])('%s: 400 invalid_note at note, unchanged', async (_what, note) => {
    const alice = await server.person();
    const made = await createLink(alice, { note: 'kept' });
    const reply = await call(server, 'setNote', { code: made.code, note }, alice.token);
    expectProblem(server, reply, 400, 'invalid_note', 'note');
    expect((await getLink(alice, made.code)).body).toEqual(made);
  });

  it('note missing: 400 bad_request at note', async () => {
    const alice = await server.person();
    const made = await createLink(alice);
    expectProblem(server, await call(server, 'setNote', { code: made.code }, alice.token), 400, 'bad_request', 'note');
  });

  it('note not a string: 400 bad_request at note', async () => {
    const alice = await server.person();
    const made = await createLink(alice);
    expectProblem(server, await call(server, 'setNote', { code: made.code, note: 5 }, alice.token), 400, 'bad_request', 'note');
  });

  it('works on a flagged link', async () => {
    const alice = await server.person();
    const made = await createLink(alice);
    await setState(made.code, 'flagged');
    const reply = await call(server, 'setNote', { code: made.code, note: 'while flagged' }, alice.token);
    expectOk(reply);
    expect(reply.body).toMatchObject({ note: 'while flagged', state: 'flagged' });
  });

  it('a disabled link: 409 conflict, unchanged', async () => {
    const alice = await server.person();
    const made = await createLink(alice, { note: 'kept' });
    await setState(made.code, 'disabled');
    const before = (await getLink(alice, made.code)).body;
    const reply = await call(server, 'setNote', { code: made.code, note: 'nope' }, alice.token);
    expectProblem(server, reply, 409, 'conflict');
    expect((await getLink(alice, made.code)).body).toEqual(before);
  });

  it('is not limited by the change limit', async () => {
    await server.setLimits({ changesPerHour: 1 });
    const alice = await server.person();
    const made = await createLink(alice);
    for (let i = 0; i < 3; i++) {
      expectOk(await call(server, 'setNote', { code: made.code, note: `note ${i}` }, alice.token));
    }
  });

  it('another team\'s link: 404 not_found at code', async () => {
    const alice = await server.person();
    const bob = await server.person();
    const bobs = await createLink(bob, { note: 'bobs' });
    expectProblem(server, await call(server, 'setNote', { code: bobs.code, note: 'mine' }, alice.token), 404, 'not_found', 'code');
    expect((await getLink(bob, bobs.code)).body.note).toBe('bobs');
  });
});
