import { describe, expect, it } from 'vitest';
import { call } from '../helpers/server.js';
import { boxOf, csrfOf, expectHiddenFromStrangers, faultOf, makeLink, server, someone, useWebServer, valueOf, type Someone } from '../helpers/web-links.js';

/**
 * A flagged link's review request (`/app/links/<code>/review`, askForReview) and reporting any link
 * (`/app/report`, reportLink) in the web app, over real HTTP without JavaScript: what the operator then sees is what
 * the tools recorded.
 */
useWebServer();

const flag = (code: string) => server.app.ctx.store.links.setState(code, 'flagged', server.clock.now());
const askReview = (who: Someone, code: string, reason: string) =>
  who.visitor.submit(`/app/links/${code}/review`, `/app/links/${code}/review`, { reason });
const openReports = async () => server.app.ctx.store.moderation.openReports(await server.app.ctx.store.settings.limits(), server.clock.now());
const report = (who: Someone, link: string, reason: string) => who.visitor.submit('/app/report', '/app/report', { link, reason });

describe('asking for a review', () => {
  it('is offered on the page of a flagged link only', async () => {
    const who = await someone();
    const code = await makeLink(who.visitor, who.team);
    const offer = `<a href="/app/links/${code}/review">Ask for a review</a>`;
    expect((await who.visitor.request('GET', `/app/links/${code}`)).body).not.toContain(offer);
    await flag(code);
    const page = await who.visitor.request('GET', `/app/links/${code}`);
    expect(page.body).toContain(offer);
    expect(page.body).toMatch(/<dt>State<\/dt><dd>flagged<\/dd>/);
  });

  it('records the request with its reason and goes back to the link with a notice', async () => {
    const who = await someone();
    const code = await makeLink(who.visitor, who.team);
    await flag(code);
    const form = await who.visitor.request('GET', `/app/links/${code}/review`);
    expect(form.status).toBe(200);
    expect(form.body).toContain('>Why the link is fine (optional)</label>');
    const asked = await askReview(who, code, 'It is our own shop.');
    expect(asked.status).toBe(303);
    expect(asked.location).toBe(`/app/links/${code}?done=review`);
    expect(boxOf(await who.visitor.request('GET', asked.location!), 'notice')).toBe(
      'Asked for a review. The service reviews the link and restores it if it is fine.',
    );
    const reviews = await server.app.ctx.store.moderation.openReviews();
    expect(reviews.find((r) => r.linkCode === code)).toMatchObject({ reason: 'It is our own shop.' });
  });

  it('answers 409 for a link that is not flagged, on the page and through the tool', async () => {
    const who = await someone();
    const code = await makeLink(who.visitor, who.team);
    const page = await who.visitor.request('GET', `/app/links/${code}/review`);
    expect(page.status).toBe(409);
    expect(page.body).toContain('This link is active: only a flagged link can be reviewed.');
    const posted = await who.visitor.request('POST', `/app/links/${code}/review`, { _csrf: csrfOf(page), reason: '' });
    expect(posted.status).toBe(409);
    expect(boxOf(posted, 'alert')).toBe('Only a flagged link can be reviewed; this one is not flagged.');
  });

  it('refuses a form without its CSRF field (403), and another team’s link (404)', async () => {
    const who = await someone();
    const code = await makeLink(who.visitor, who.team);
    await flag(code);
    expect((await who.visitor.request('POST', `/app/links/${code}/review`, { reason: 'x' })).status).toBe(403);
    await expectHiddenFromStrangers(code, 'review', { reason: 'mine' });
    expect((await server.app.ctx.store.moderation.openReviews()).some((r) => r.linkCode === code)).toBe(false);
  });
});

describe('reporting a link', () => {
  it('is in the main menu of every page, signed in or not; signed out, it asks to sign in first', async () => {
    const reporter = await someone();
    expect((await reporter.visitor.request('GET', '/app')).body).toContain('<li><a href="/app/report">Report a link</a></li>');
    expect((await reporter.visitor.request('GET', '/app/report')).body).toContain('<li><a href="/app/report" aria-current="page">Report a link</a></li>');
    const home = await fetch(`${server.url}/`);
    expect(await home.text()).toContain('<li><a href="/app/report">Report a link</a></li>');
    const signedOut = await fetch(`${server.url}/app/report`, { redirect: 'manual' });
    expect([signedOut.status, signedOut.headers.get('location')]).toEqual([303, '/signin?next=%2Fapp%2Freport']);
  });

  it('a flagged link’s page says it is flagged, not by whom', async () => {
    const who = await someone();
    const code = await makeLink(who.visitor, who.team);
    await flag(code);
    const page = await who.visitor.request('GET', `/app/links/${code}`);
    expect(page.body).toContain('The service flagged this link for review: its destination and name cannot change until the review');
    expect(page.body).not.toContain('reported');
  });

  it('reports another team’s link by its short address, with a notice after the redirect', async () => {
    const owner = await someone();
    const code = await makeLink(owner.visitor, owner.team);
    const reporter = await someone();
    const done = await report(reporter, `${server.url}/${code}`, 'Phishing for bank logins');
    expect(done.status).toBe(303);
    expect(done.location).toBe(`/app/report?reported=${code}`);
    expect(boxOf(await reporter.visitor.request('GET', done.location!), 'notice')).toBe(`Thank you: your report of ${server.url}/${code} was sent.`);
    const reports = await openReports();
    expect(reports.find((r) => r.linkCode === code)).toMatchObject({ reason: 'Phishing for bank logins' });
  });

  it('finds a link by its code, its name or its named address', async () => {
    const owner = await someone();
    const code = await makeLink(owner.visitor, owner.team, { name: 'report-named' });
    const reporters = [await someone(), await someone(), await someone()];
    const entries = [code, 'report-named', `${server.url}/report-named`];
    for (const [i, entry] of entries.entries()) {
      expect((await report(reporters[i]!, entry, 'spam')).location).toBe(`/app/report?reported=${code}`);
    }
    expect((await openReports()).filter((r) => r.linkCode === code)).toHaveLength(3);
  });

  it('fills the address in from the warning page of a flagged link', async () => {
    const owner = await someone();
    const code = await makeLink(owner.visitor, owner.team);
    await flag(code);
    const warning = await (await fetch(`${server.url}/${code}`)).text();
    expect(warning).toContain(`<a href="/app/report?link=${code}">Report it</a>`);
    const reporter = await someone();
    expect(valueOf(await reporter.visitor.request('GET', `/app/report?link=${code}`), 'link')).toBe(code);
  });

  it('shows both faults at once: no such link and no reason', async () => {
    const reporter = await someone();
    const page = await report(reporter, `${server.url}/ZZZZZZZ`, '');
    expect(page.status).toBe(404);
    expect(faultOf(page, 'link')).toBe('No link has that code.');
    expect(faultOf(page, 'reason')).toBe('reason is required.');
    expect(valueOf(page, 'link')).toBe(`${server.url}/ZZZZZZZ`);
    const empty = await report(reporter, '  ', 'spam');
    expect(empty.status).toBe(400);
    expect(faultOf(empty, 'link')).toBe('Enter a short address or code.');
    expect(faultOf(empty, 'reason')).toBeUndefined();
  });

  it('refuses an empty reason for a real link with the tool’s 400, reporting nothing', async () => {
    const owner = await someone();
    const code = await makeLink(owner.visitor, owner.team);
    const page = await report(await someone(), code, '');
    expect(page.status).toBe(400);
    expect(faultOf(page, 'reason')).toBe('reason is required.');
    expect((await openReports()).some((r) => r.linkCode === code)).toBe(false);
  });

  it('refuses a form without its CSRF field (403) and reports nothing', async () => {
    const owner = await someone();
    const code = await makeLink(owner.visitor, owner.team);
    const forged = await (await someone()).visitor.request('POST', '/app/report', { link: code, reason: 'spam' });
    expect(forged.status).toBe(403);
    expect((await openReports()).some((r) => r.linkCode === code)).toBe(false);
  });

  it('counts the reports of established people: three flag the link, as through the tool', async () => {
    const owner = await someone();
    const code = await makeLink(owner.visitor, owner.team);
    await server.setLimits({ establishedAfterHours: 0 });
    for (let i = 0; i < 3; i++) expect((await report(await someone(), code, 'malware')).status).toBe(303);
    expect((await call(server, 'getLink', { code }, owner.token)).body.state).toBe('flagged');
  });
});

describe('odd report forms', () => {
  it.each([
    { what: 'a NUL', fields: { link: '\u0000', reason: '\u0000' } },
    { what: '5,000 characters', fields: { link: 'a'.repeat(5000), reason: 'a'.repeat(5000) } },
    { what: 'a path instead of an address', fields: { link: '/app/links/../../teams', reason: 'x' } },
    { what: 'no fields at all', fields: {} },
  ])('answers $what with a 4xx page', async ({ fields }) => {
    const page = await (await someone()).visitor.submit('/app/report', '/app/report', fields);
    expect(page.status).toBeGreaterThanOrEqual(400);
    expect(page.status).toBeLessThan(500);
  });
});
