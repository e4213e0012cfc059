import { describe, expect, it } from 'vitest';
import { call } from '../helpers/server.js';
import type { WebPage } from '../helpers/web-forms.js';
import { boxOf, faultOf, makeLink, server, someone, useWebServer, type Someone } from '../helpers/web-links.js';

/**
 * A link's options in the web app, over real HTTP as a browser without JavaScript: the dashboard's make form (the
 * options and the UTM builder), the edit page's options form (setLinkOptions), and the link's page and the
 * dashboard showing them. The API reads back what the forms did. The server's clock stands at 2026-11-21 12:00 UTC.
 */
useWebServer();

const make = (who: Someone, fields: Record<string, string>) => who.visitor.submit('/app', '/app/links', { team: who.team, ...fields });
const setOptions = (who: Someone, code: string, fields: Record<string, string>) =>
  who.visitor.submit(`/app/links/${code}/edit`, `/app/links/${code}/options`, fields);
const getLink = async (who: Someone, code: string) => (await call(server, 'getLink', { code }, who.token)).body;
const linkCount = (who: Someone) => server.app.ctx.store.teams.linkCount(who.team);

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
/** An input's value as the page shows it, whatever its type (datetime-local, number, password). */
function inputValue(page: WebPage, field: string): string | undefined {
  const match = new RegExp(`<input id="f-${field}" name="${field}" type="[a-z-]+" value="([^"]*)"`).exec(page.body);
  return match?.[1]!.replace(/&(amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity]!);
}
const isTicked = (page: WebPage, field: string) => new RegExp(`id="f-${field}" name="${field}" value="yes" checked`).test(page.body);

/** The tools' own words for a bad click cap, password and tag. */
const MAX_CLICKS_FAULT = 'maxClicks must be a whole number from 1 to 10,000,000.';
const PASSWORD_FAULT = "A link's password is 8 to 128 characters.";
const TAG_FAULT = 'A link has at most 10 tags, each 1 to 30 characters of lowercase letters, digits, "-" and "_".';

function expectFaults(page: WebPage, faults: Record<string, string>): void {
  for (const [field, fault] of Object.entries(faults)) expect(faultOf(page, field), field).toBe(fault);
}

const EVERY_OPTION = {
  destination: 'https://example.com/launch?utm_source=old&keep=a%20b#top',
  expiresAt: '2027-01-31T18:00',
  maxClicks: '500',
  password: 'a long secret phrase',
  tags: 'spring, fair  launch',
  utm_source: 'news letter',
  utm_medium: 'email',
  utm_campaign: 'spring-2027',
  utm_term: '',
  utm_content: ' ',
};

describe('the make form', () => {
  it('makes a link with every option, the UTM fields added to the destination', async () => {
    const who = await someone();
    // The query string box left unticked: a browser then sends no forwardQuery at all.
    const made = await make(who, EVERY_OPTION);
    expect(made.status).toBe(303);
    const code = /made=([A-Za-z0-9]{7})/.exec(made.location!)![1]!;
    expect(await getLink(who, code)).toMatchObject({
      destination: 'https://example.com/launch?keep=a%20b&utm_source=news%20letter&utm_medium=email&utm_campaign=spring-2027#top',
      expiresAt: '2027-01-31T18:00:00.000Z',
      maxClicks: 500,
      hasPassword: true,
      tags: ['fair', 'launch', 'spring'],
      forwardQuery: false,
    });
  });

  it('makes a plain link when the options are left as the form shows them: the query string passed on', async () => {
    const who = await someone();
    const form = await who.visitor.request('GET', '/app');
    // Closed, the box ticked, no UTM builder open.
    expect(form.body).toContain('<details class="options"><summary>');
    expect(form.body).toContain('<details class="utm"><summary>');
    expect(isTicked(form, 'forwardQuery')).toBe(true);
    expect(form.body).toContain('<label for="f-expiresAt">Ends (UTC, optional)</label>');
    expect(form.body).toMatch(/<input id="f-password" name="password" type="password" value="" autocomplete="new-password"/);
    const code = await makeLink(who.visitor, who.team, { forwardQuery: 'yes', expiresAt: '', maxClicks: '', password: '', tags: '' });
    expect(await getLink(who, code)).toMatchObject({
      destination: 'https://example.com/page',
      expiresAt: null,
      maxClicks: null,
      hasPassword: false,
      tags: [],
      forwardQuery: true,
    });
  });

  it('shows every fault beside its field in the tool’s words, keeps what was typed (not the password), and makes nothing', async () => {
    const who = await someone();
    const page = await make(who, {
      ...EVERY_OPTION,
      destination: 'http://example.com/plain',
      name: 'Not A Name',
      expiresAt: '2020-01-01T00:00',
      maxClicks: '0',
      password: 'short',
      tags: 'ok, Spring, <b>',
      forwardQuery: 'yes',
    });
    expect(page.status).toBe(400);
    expect(faultOf(page, 'destination')).toBe('The destination must be an https address.');
    expect(faultOf(page, 'name')).toBe('A short link name is 3 to 50 characters of lowercase letters, digits, "-" and "_".');
    expect(faultOf(page, 'expiresAt')).toBe('expiresAt must be in the future.');
    expectFaults(page, { maxClicks: MAX_CLICKS_FAULT, password: PASSWORD_FAULT, tags: TAG_FAULT });
    // Each tied to its field, which says it is at fault.
    expect(page.body).toMatch(/<input id="f-tags" name="tags" type="text" value="[^"]*" aria-invalid="true" aria-describedby="f-tags-hint f-tags-error">/);
    // What was typed, escaped; the password never.
    expect(inputValue(page, 'destination')).toBe('http://example.com/plain');
    expect(inputValue(page, 'expiresAt')).toBe('2020-01-01T00:00');
    expect(inputValue(page, 'maxClicks')).toBe('0');
    expect(inputValue(page, 'tags')).toBe('ok, Spring, <b>');
    expect(page.body).toContain('value="ok, Spring, &lt;b&gt;"');
    expect(inputValue(page, 'password')).toBe('');
    expect(page.body).not.toContain('short"');
    expect(inputValue(page, 'utm_source')).toBe('news letter');
    expect(isTicked(page, 'forwardQuery')).toBe(true);
    // Both disclosures open, as they hold faults and values.
    expect(page.body).toContain('<details class="options" open>');
    expect(page.body).toContain('<details class="utm" open>');
    expect(await linkCount(who)).toBe(0);
  });

  it('refuses an uppercase tag alone beside the tags field (invalid_tag) and a click cap that is no number', async () => {
    const who = await someone();
    const upper = await make(who, { destination: 'https://example.com/page', tags: 'Launch', forwardQuery: 'yes' });
    expect(upper.status).toBe(400);
    expect(faultOf(upper, 'tags')).toBe(TAG_FAULT);
    expect(faultOf(upper, 'destination')).toBeUndefined();
    expect(boxOf(upper, 'alert')).toBeUndefined();
    const words = await make(who, { destination: 'https://example.com/page', maxClicks: 'many' });
    expect(faultOf(words, 'maxClicks')).toBe(MAX_CLICKS_FAULT);
    expect(await linkCount(who)).toBe(0);
  });
});

describe('the edit page’s options', () => {
  async function linkWithOptions(who: Someone): Promise<string> {
    const made = await make(who, { ...EVERY_OPTION, destination: 'https://example.com/page', forwardQuery: '' });
    return /made=([A-Za-z0-9]{7})/.exec(made.location!)![1]!;
  }
  const hashOf = async (code: string) => (await server.app.ctx.store.links.findByCode(code))!.passwordHash;

  it('shows the link’s options in the form, the password only as there', async () => {
    const who = await someone();
    const code = await linkWithOptions(who);
    const page = await who.visitor.request('GET', `/app/links/${code}/edit`);
    expect(page.body).toContain(`<form method="post" action="/app/links/${code}/options" class="card" novalidate>`);
    expect(inputValue(page, 'expiresAt')).toBe('2027-01-31T18:00');
    expect(inputValue(page, 'maxClicks')).toBe('500');
    expect(inputValue(page, 'tags')).toBe('fair, launch, spring');
    expect(inputValue(page, 'password')).toBe('');
    expect(page.body).toContain('<p>This link has a password.</p>');
    expect(page.body).toContain('Remove the password');
    expect(isTicked(page, 'forwardQuery')).toBe(false);
  });

  it('changes the options, keeps the password when its field is left empty, then removes it', async () => {
    const who = await someone();
    const code = await linkWithOptions(who);
    const hash = await hashOf(code);
    const saved = await setOptions(who, code, { expiresAt: '2027-03-01T09:30', maxClicks: '', password: '', tags: 'autumn,fair', forwardQuery: 'yes' });
    expect(saved.status).toBe(303);
    expect(saved.location).toBe(`/app/links/${code}?done=edited`);
    expect(await getLink(who, code)).toMatchObject({
      expiresAt: '2027-03-01T09:30:00.000Z',
      maxClicks: null,
      hasPassword: true,
      tags: ['autumn', 'fair'],
      forwardQuery: true,
    });
    expect(await hashOf(code)).toBe(hash);

    // The same form again changes nothing and says so.
    const same = await setOptions(who, code, { expiresAt: '2027-03-01T09:30', maxClicks: '', password: '', tags: 'fair autumn', forwardQuery: 'yes' });
    expect(same.location).toBe(`/app/links/${code}?done=unchanged`);

    const removed = await setOptions(who, code, { expiresAt: '2027-03-01T09:30', removePassword: 'yes', tags: 'autumn, fair', forwardQuery: 'yes' });
    expect(removed.status).toBe(303);
    expect(await getLink(who, code)).toMatchObject({ hasPassword: false, tags: ['autumn', 'fair'], expiresAt: '2027-03-01T09:30:00.000Z' });

    const again = await setOptions(who, code, { expiresAt: '', password: 'another long phrase', tags: '', forwardQuery: 'yes' });
    expect(again.status).toBe(303);
    expect(await getLink(who, code)).toMatchObject({ hasPassword: true, expiresAt: null, tags: [] });
  });

  it('shows every fault beside its field and saves nothing', async () => {
    const who = await someone();
    const code = await linkWithOptions(who);
    const page = await setOptions(who, code, { expiresAt: '2040-01-01T00:00', maxClicks: '10000001', password: 'short', tags: 'UPPER' });
    expect(page.status).toBe(400);
    expect(faultOf(page, 'expiresAt')).toBe('expiresAt may be at most 10 years ahead.');
    expectFaults(page, { maxClicks: MAX_CLICKS_FAULT, password: PASSWORD_FAULT, tags: TAG_FAULT });
    expect(inputValue(page, 'tags')).toBe('UPPER');
    expect(inputValue(page, 'password')).toBe('');
    // The other form shows the link as it is.
    expect(inputValue(page, 'destination')).toBe('https://example.com/page?utm_source=news%20letter&utm_medium=email&utm_campaign=spring-2027');
    expect(await getLink(who, code)).toMatchObject({ expiresAt: '2027-01-31T18:00:00.000Z', maxClicks: 500, tags: ['fair', 'launch', 'spring'] });
  });

  it('refuses a flagged link’s options above the form (409), and a disabled one’s', async () => {
    const who = await someone();
    const code = await linkWithOptions(who);
    const { store } = server.app.ctx;
    await store.links.setState(code, 'flagged', server.clock.now());
    const flagged = await setOptions(who, code, { tags: 'other', forwardQuery: 'yes' });
    expect(flagged.status).toBe(409);
    expect(flagged.body).toContain('<p class="alert" role="alert">The link&#39;s options cannot change while the link is flagged; ask for a review.</p>');
    await store.links.setState(code, 'disabled', server.clock.now());
    const page = await who.visitor.request('GET', `/app/links/${code}/edit`);
    expect(page.body).not.toContain(`action="/app/links/${code}/options"`);
    const csrf = /name="_csrf" value="([^"]+)"/.exec((await who.visitor.request('GET', '/app')).body)![1]!;
    const disabled = await who.visitor.request('POST', `/app/links/${code}/options`, { _csrf: csrf, tags: 'other' });
    expect(disabled.status).toBe(409);
    expect(disabled.body).toContain('role="alert"');
    expect((await getLink(who, code)).tags).toEqual(['fair', 'launch', 'spring']);
  });

  it('needs the form’s CSRF field, and hides another team’s link', async () => {
    const who = await someone();
    const code = await linkWithOptions(who);
    expect((await who.visitor.request('POST', `/app/links/${code}/options`, { tags: 'csrf' })).status).toBe(403);
    const stranger = await someone();
    const csrf = /name="_csrf" value="([^"]+)"/.exec((await stranger.visitor.request('GET', '/app')).body)![1]!;
    expect((await stranger.visitor.request('POST', `/app/links/${code}/options`, { _csrf: csrf, tags: 'mine' })).status).toBe(404);
    expect((await getLink(who, code)).tags).toEqual(['fair', 'launch', 'spring']);
  });

  it('adds the UTM builder’s fields to the link’s destination, from a form of its own on the edit page', async () => {
    const who = await someone();
    const code = await makeLink(who.visitor, who.team, { destination: 'https://example.com/page?utm_campaign=old&a=1', name: 'utm-kept' });
    const page = await who.visitor.request('GET', `/app/links/${code}/edit`);
    expect(page.body).toContain('<label for="f-utm_campaign">Campaign (utm_campaign)</label>');
    const saved = await who.visitor.submit(`/app/links/${code}/edit`, `/app/links/${code}/edit`, { utm_campaign: 'new', utm_medium: 'print' });
    expect(saved.status).toBe(303);
    expect(await getLink(who, code)).toMatchObject({ destination: 'https://example.com/page?a=1&utm_medium=print&utm_campaign=new', name: 'utm-kept' });
  });
});

describe('showing the options', () => {
  it('the link’s page and the dashboard show them', async () => {
    const who = await someone();
    const made = await make(who, { ...EVERY_OPTION, destination: 'https://example.com/page' });
    const code = /made=([A-Za-z0-9]{7})/.exec(made.location!)![1]!;
    const page = await who.visitor.request('GET', `/app/links/${code}`);
    expect(page.body).toContain('<div><dt>Ends</dt><dd><time datetime="2027-01-31T18:00:00.000Z">2027-01-31 18:00 UTC</time></dd></div>');
    expect(page.body).toContain('<div><dt>Click cap</dt><dd>500 clicks</dd></div>');
    expect(page.body).toContain('<div><dt>Password</dt><dd>Protected by a password</dd></div>');
    expect(page.body).toContain('<div><dt>Tags</dt><dd>fair, launch, spring</dd></div>');
    expect(page.body).toContain('<div><dt>Query string</dt><dd>Not passed on</dd></div>');
    const list = await who.visitor.request('GET', '/app');
    expect(list.body).toContain(
      '<p class="meta tags">Tags: <a href="/app?tag=fair">fair</a>, <a href="/app?tag=launch">launch</a>, <a href="/app?tag=spring">spring</a></p>',
    );
    // A tag leads to the links carrying it; the filter form keeps it, and says what it found.
    const other = await makeLink(who.visitor, who.team, { forwardQuery: 'yes' });
    const byTag = await who.visitor.request('GET', '/app?tag=launch');
    expect(byTag.status).toBe(200);
    expect(byTag.body).toContain(`/app/links/${code}"`);
    expect(byTag.body).not.toContain(`/app/links/${other}"`);
    expect(byTag.body).toContain('<p class="matches" role="status">1 link matches.</p>');
    expect(byTag.body).toContain('<p class="active-tag">Only links tagged <strong>launch</strong> · <a href="/app">Show every tag</a></p>');
    expect(byTag.body).toContain('<input type="hidden" name="tag" value="launch">');
    const none = await who.visitor.request('GET', '/app?tag=none-such');
    expect(none.body).toContain('No links match.');
    const bad = await who.visitor.request('GET', `/app?tag=${'x'.repeat(31)}`);
    expect(bad.status).toBe(400);
    expect(bad.body).toContain('<p class="error" role="alert">');

    const plain = await makeLink(who.visitor, who.team, { forwardQuery: 'yes' });
    const plainPage = await who.visitor.request('GET', `/app/links/${plain}`);
    expect(plainPage.body).toContain('<div><dt>Ends</dt><dd><span class="muted">never</span></dd></div>');
    expect(plainPage.body).toContain('<div><dt>Click cap</dt><dd><span class="muted">none</span></dd></div>');
    expect(plainPage.body).toContain('<div><dt>Password</dt><dd><span class="muted">none</span></dd></div>');
    expect(plainPage.body).toContain("<div><dt>Query string</dt><dd>The visitor&#39;s query string is passed on to the destination</dd></div>");
  });
});
