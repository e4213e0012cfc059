import { describe, expect, it } from 'vitest';
import { call, expectProblem } from '../helpers/server.js';
import { boxOf, expectHiddenFromStrangers, faultOf, makeLink, server, someone, useWebServer, valueOf, type Someone } from '../helpers/web-links.js';

/**
 * Editing a link, `/app/links/<code>/edit`, over real HTTP as a browser without JavaScript: each changed field goes
 * to its tool (changeDestination, renameLink, setNote) and only then, every fault of the form shows at once beside
 * its field in the tools' own words, and a form with any fault changes nothing. The API reads back what the page did.
 */
useWebServer();

const edit = (who: Someone, code: string, fields: Record<string, string>) =>
  who.visitor.submit(`/app/links/${code}/edit`, `/app/links/${code}/edit`, fields);
const getLink = async (who: Someone, code: string) => (await call(server, 'getLink', { code }, who.token)).body;

describe('the edit page', () => {
  it('shows the link as it is, each field labelled, and a way back', async () => {
    const who = await someone();
    const code = await makeLink(who.visitor, who.team, { name: 'edit-shown', note: 'for the poster' });
    const page = await who.visitor.request('GET', `/app/links/${code}/edit`);
    expect(page.status).toBe(200);
    expect(valueOf(page, 'destination')).toBe('https://example.com/page');
    expect(valueOf(page, 'name')).toBe('edit-shown');
    expect(valueOf(page, 'note')).toBe('for the poster');
    for (const label of ['Destination', 'Short link name', 'Note']) expect(page.body).toContain(`>${label}</label>`);
    expect(page.body).toContain(`<a href="/app/links/${code}">← Link ${code}</a>`);
    // The link's page offers it.
    expect((await who.visitor.request('GET', `/app/links/${code}`)).body).toContain(`<a href="/app/links/${code}/edit">Edit</a>`);
  });

  it('changes the destination, name and note, then shows the link with a notice (post/redirect/get)', async () => {
    const who = await someone();
    const code = await makeLink(who.visitor, who.team);
    const saved = await edit(who, code, { destination: 'https://example.org/new', name: 'edit-renamed', note: 'Moved, for good!' });
    expect(saved.status).toBe(303);
    expect(saved.location).toBe(`/app/links/${code}?done=edited`);
    const shown = await who.visitor.request('GET', saved.location!);
    expect(boxOf(shown, 'notice')).toBe('Saved your changes.');
    expect(shown.body).toContain(`<a href="${server.url}/edit-renamed">${server.url}/edit-renamed</a>`);
    expect(await getLink(who, code)).toMatchObject({ destination: 'https://example.org/new', name: 'edit-renamed', note: 'Moved, for good!' });
    expect((await fetch(`${server.url}/edit-renamed`, { redirect: 'manual' })).headers.get('location')).toBe('https://example.org/new');
  });

  it('removes the name and clears the note when their fields are emptied', async () => {
    const who = await someone();
    const code = await makeLink(who.visitor, who.team, { name: 'edit-cleared', note: 'old note' });
    expect((await edit(who, code, { destination: 'https://example.com/page', name: '', note: '' })).status).toBe(303);
    expect(await getLink(who, code)).toMatchObject({ name: null, note: null });
    expect((await fetch(`${server.url}/edit-cleared`, { redirect: 'manual' })).status).toBe(404);
  });

  it('sends only the fields that changed: a note alone spends none of the changes per hour', async () => {
    const who = await someone();
    const code = await makeLink(who.visitor, who.team, { name: 'edit-only' });
    await server.setLimits({ changesPerHour: 1 });
    for (const note of ['first', 'second']) {
      expect((await edit(who, code, { destination: 'https://example.com/page', name: 'edit-only', note })).status).toBe(303);
    }
    expect((await edit(who, code, { destination: 'https://example.com/moved', name: 'edit-only', note: 'second' })).status).toBe(303);
    // The destination is no change now, so the note alone goes: the spent limit does not stand in its way.
    expect((await edit(who, code, { destination: 'https://example.com/moved', name: 'edit-only', note: 'third' })).status).toBe(303);
    expect(await getLink(who, code)).toMatchObject({ destination: 'https://example.com/moved', name: 'edit-only', note: 'third' });
  });

  it('says so when nothing changed, and changes nothing', async () => {
    const who = await someone();
    const code = await makeLink(who.visitor, who.team);
    const same = await edit(who, code, { destination: 'https://example.com/page', name: '', note: '' });
    expect(same.location).toBe(`/app/links/${code}?done=unchanged`);
    expect(boxOf(await who.visitor.request('GET', same.location!), 'notice')).toBe('Nothing changed: the form held the link as it was.');
    expect((await getLink(who, code)).changedAt).toBeNull();
  });

  it('shows every fault at once beside its field, in the tools’ words, and changes nothing', async () => {
    const who = await someone();
    const code = await makeLink(who.visitor, who.team, { note: 'kept' });
    const page = await edit(who, code, { destination: 'http://example.com/plain', name: 'Not A Name', note: 'no <tags>' });
    expect(page.status).toBe(400);
    expect(faultOf(page, 'destination')).toBe('The destination must be an https address.');
    expect(faultOf(page, 'name')).toBe('A short link name is 3 to 50 characters of lowercase letters, digits, "-" and "_".');
    expect(faultOf(page, 'note')).toBe("A note is at most 100 characters of letters, numbers, spaces and - _ , . ' ( ) & ! ? :");
    // What the person typed stays, so they can correct it.
    expect(valueOf(page, 'name')).toBe('Not A Name');
    expect(page.body).toContain('aria-invalid="true" aria-describedby="f-destination-hint f-destination-error"');
    expect(await getLink(who, code)).toMatchObject({ destination: 'https://example.com/page', name: null, note: 'kept', changedAt: null });
  });

  it('changes nothing when one field of several is at fault', async () => {
    const who = await someone();
    const code = await makeLink(who.visitor, who.team);
    const page = await edit(who, code, { destination: 'https://example.org/good', name: 'x', note: 'good note' });
    expect(page.status).toBe(400);
    expect(faultOf(page, 'name')).toBe('A short link name is 3 to 50 characters of lowercase letters, digits, "-" and "_".');
    expect(faultOf(page, 'destination')).toBeUndefined();
    expect(faultOf(page, 'note')).toBeUndefined();
    expect(await getLink(who, code)).toMatchObject({ destination: 'https://example.com/page', note: null, changedAt: null });
  });

  it('refuses a destination the service does not allow, with the API’s message', async () => {
    const who = await someone();
    const code = await makeLink(who.visitor, who.team);
    const page = await edit(who, code, { destination: `${server.url}/AAAAAAA`, name: '', note: '' });
    expect(page.status).toBe(400);
    expect(faultOf(page, 'destination')).toBe(
      (await call(server, 'setDestination', { code, destination: `${server.url}/AAAAAAA` }, who.token)).body.detail,
    );
    expect(faultOf(page, 'destination')).toMatch(/^The destination /);
  });

  it('answers 409 name_taken beside the name, leaving the destination of the same form unchanged', async () => {
    const who = await someone();
    await makeLink(who.visitor, who.team, { name: 'edit-taken' });
    const code = await makeLink(who.visitor, who.team);
    const page = await edit(who, code, { destination: 'https://example.org/other', name: 'edit-taken', note: '' });
    expect(page.status).toBe(409);
    expect(faultOf(page, 'name')).toBe('The short link name "edit-taken" is taken.');
    expect(boxOf(page, 'alert')).toBeUndefined();
    expect(await getLink(who, code)).toMatchObject({ destination: 'https://example.com/page', name: null });
  });

  it('finds a taken name before saving, beside the other faults of the form, and changes nothing', async () => {
    const who = await someone();
    const other = await someone();
    await makeLink(other.visitor, other.team, { name: 'edit-theirs' });
    const code = await makeLink(who.visitor, who.team, { note: 'kept' });
    const page = await edit(who, code, { destination: 'http://example.com/plain', name: 'edit-theirs', note: 'changed' });
    expect(page.status).toBe(400);
    expect(faultOf(page, 'destination')).toBe('The destination must be an https address.');
    expect(faultOf(page, 'name')).toBe(
      (await call(server, 'renameLink', { code, name: 'edit-theirs' }, who.token)).body.detail,
    );
    expect(faultOf(page, 'name')).toBe('The short link name "edit-theirs" is taken.');
    expect(await getLink(who, code)).toMatchObject({ destination: 'https://example.com/page', name: null, note: 'kept', changedAt: null });
    // The link's own name, and a name its team kept from a rename, are no fault.
    expect((await edit(who, code, { destination: 'https://example.com/page', name: 'edit-mine', note: 'kept' })).status).toBe(303);
    expect((await edit(who, code, { destination: 'https://example.com/page', name: 'edit-mine-2', note: 'kept' })).status).toBe(303);
    expect((await edit(who, code, { destination: 'https://example.org/moved', name: 'edit-mine', note: 'kept' })).status).toBe(303);
    expect(await getLink(who, code)).toMatchObject({ destination: 'https://example.org/moved', name: 'edit-mine' });
  });

  it('refuses a flagged link’s destination and name (409 link_flagged) but takes its note; a disabled link takes nothing', async () => {
    const who = await someone();
    const code = await makeLink(who.visitor, who.team);
    const { store } = server.app.ctx;
    await store.links.setState(code, 'flagged', server.clock.now());
    const editPage = await who.visitor.request('GET', `/app/links/${code}/edit`);
    expect(editPage.body).toContain(`<a href="/app/links/${code}/review">Ask for a review</a>`);
    const refused = await edit(who, code, { destination: 'https://example.org/flee', name: 'edit-flagged', note: 'fine' });
    expect(refused.status).toBe(409);
    expect(faultOf(refused, 'destination')).toBe('The destination cannot change while the link is flagged; ask for a review.');
    expect(faultOf(refused, 'name')).toBe('The short link name cannot change while the link is flagged; ask for a review.');
    expect((await getLink(who, code)).note).toBeNull();
    expect((await edit(who, code, { destination: 'https://example.com/page', name: '', note: 'fine' })).status).toBe(303);
    expect((await getLink(who, code)).note).toBe('fine');

    await store.links.setState(code, 'disabled', server.clock.now());
    // A disabled link offers no Edit, and its edit page no form: only the note saying it takes no change.
    const disabledNote = 'The service disabled this link: visitors see that it was turned off, and it cannot be changed, only deleted.';
    for (const path of [`/app/links/${code}`, '/app']) {
      const page = await who.visitor.request('GET', path);
      expect(page.body).toContain(`/app/links/${code}/delete`);
      expect(page.body).not.toContain(`/app/links/${code}/edit`);
    }
    const disabledPage = await who.visitor.request('GET', `/app/links/${code}/edit`);
    expect(disabledPage.status).toBe(200);
    expect(disabledPage.body).toContain(disabledNote);
    expect(disabledPage.body).not.toContain(`action="/app/links/${code}/edit"`);
    // A form kept open from before is refused, saying why.
    const disabled = await edit(who, code, { destination: 'https://example.com/page', name: '', note: 'changed' });
    expect(disabled.status).toBe(409);
    expect(disabled.body).toContain(disabledNote);
    expect((await getLink(who, code)).note).toBe('fine');
  });

  it('counts changes made on the page against the API’s changes per hour, with Retry-After', async () => {
    const who = await someone();
    const code = await makeLink(who.visitor, who.team);
    await server.setLimits({ changesPerHour: 2 });
    for (const path of ['one', 'two']) {
      expect((await edit(who, code, { destination: `https://example.com/${path}`, name: '', note: '' })).status).toBe(303);
    }
    const limited = await edit(who, code, { destination: 'https://example.com/three', name: '', note: '' });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    const api = await call(server, 'setDestination', { code, destination: 'https://example.com/three' }, who.token);
    expectProblem(server, api, 429, 'limit_reached');
    expect(faultOf(limited, 'destination')).toBe(api.body.detail);
    expect((await getLink(who, code)).destination).toBe('https://example.com/two');
  });

  it('says which changes were saved when the limit stops one, and why beside the one it stopped', async () => {
    const who = await someone();
    const code = await makeLink(who.visitor, who.team);
    await server.setLimits({ changesPerHour: 1 });
    const page = await edit(who, code, { destination: 'https://example.org/late', name: 'edit-first', note: 'saved too' });
    expect(page.status).toBe(429);
    // The name spent the hour's one change; the destination waits for the next hour; the note counts against no
    // limit, so it is saved all the same.
    expect(boxOf(page, 'alert')).toBe('Saved the short link name and note; not the destination.');
    expect(await getLink(who, code)).toMatchObject({ destination: 'https://example.com/page', name: 'edit-first', note: 'saved too' });
    const api = await call(server, 'setDestination', { code, destination: 'https://example.org/late' }, who.token);
    expectProblem(server, api, 429, 'limit_reached');
    expect(faultOf(page, 'destination')).toBe(api.body.detail);
    expect([faultOf(page, 'name'), faultOf(page, 'note')]).toEqual([undefined, undefined]);
    expect(valueOf(page, 'destination')).toBe('https://example.org/late');
  });

  it('shows the limit beside every field it stopped', async () => {
    const who = await someone();
    const code = await makeLink(who.visitor, who.team);
    await server.setLimits({ changesPerHour: 1 });
    await call(server, 'setNote', { code, note: 'first' }, who.token);
    expect((await call(server, 'setDestination', { code, destination: 'https://example.org/one' }, who.token)).status).toBe(200);
    const page = await edit(who, code, { destination: 'https://example.org/two', name: 'edit-stopped', note: 'first' });
    expect(page.status).toBe(429);
    expect(boxOf(page, 'alert')).toBeUndefined();
    expect(faultOf(page, 'name')).toMatch(/^The team made 1 change in the last hour\. That is the operator's limit of changes per team per hour\. Try again in \d+ minutes\.$/);
    expect(faultOf(page, 'destination')).toBe(faultOf(page, 'name'));
    expect(await getLink(who, code)).toMatchObject({ destination: 'https://example.org/one', name: null });
  });

  it('refuses a form without its CSRF field (403), changing nothing', async () => {
    const who = await someone();
    const code = await makeLink(who.visitor, who.team);
    const forged = await who.visitor.request('POST', `/app/links/${code}/edit`, { destination: 'https://example.org/forged', name: '', note: '' });
    expect(forged.status).toBe(403);
    expect(forged.body).toContain('The form expired or came from elsewhere; reload the page and try again.');
    expect((await getLink(who, code)).destination).toBe('https://example.com/page');
  });

  it('is not found (404) for another team’s link and for an unknown code, on the page and the form', async () => {
    const who = await someone();
    const code = await makeLink(who.visitor, who.team);
    await expectHiddenFromStrangers(code, 'edit', { destination: 'https://example.org/x', name: '', note: '' });
    expect((await getLink(who, code)).destination).toBe('https://example.com/page');
    expect((await who.visitor.request('GET', '/app/links/AAAAAAA/edit')).status).toBe(404);
    expect((await who.visitor.request('GET', '/app/links/short/edit')).status).toBe(404);
  });
});

describe('odd forms', () => {
  it('leaves a field that was not sent as it is: no field at all changes nothing, a destination alone keeps name and note', async () => {
    const who = await someone();
    const code = await makeLink(who.visitor, who.team, { name: 'edit-kept', note: 'kept note' });
    const none = await edit(who, code, {});
    expect(none.location).toBe(`/app/links/${code}?done=unchanged`);
    expect(await getLink(who, code)).toMatchObject({ destination: 'https://example.com/page', name: 'edit-kept', note: 'kept note', changedAt: null });
    expect((await edit(who, code, { destination: 'https://example.org/only' })).location).toBe(`/app/links/${code}?done=edited`);
    expect(await getLink(who, code)).toMatchObject({ destination: 'https://example.org/only', name: 'edit-kept', note: 'kept note' });
  });

  // Whatever a form holds, the answer is a 4xx page, never a 500, and the link stays as it was.
  it.each([
    { what: 'a NUL in every field', fields: { destination: 'https://example.com/\u0000', name: 'a\u0000b', note: '\u0000' } },
    { what: '5,000 characters in every field', fields: { destination: `https://example.com/${'a'.repeat(5000)}`, name: 'a'.repeat(5000), note: 'a'.repeat(5000) } },
  ])('answers $what with a 4xx page, changing nothing', async ({ fields }) => {
    const who = await someone();
    const code = await makeLink(who.visitor, who.team);
    const page = await edit(who, code, fields);
    expect(page.status).toBeGreaterThanOrEqual(400);
    expect(page.status).toBeLessThan(500);
    expect(await getLink(who, code)).toMatchObject({ destination: 'https://example.com/page', name: null, note: null, changedAt: null });
  });
});
