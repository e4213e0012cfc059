import { describe, expect, it } from 'vitest';
import { call, expectProblem } from '../helpers/server.js';
import { boxOf, expectHiddenFromStrangers, makeLink, server, someone, useWebServer, type Someone } from '../helpers/web-links.js';

/**
 * Deleting a link in the web app, `/app/links/<code>/delete`: a confirmation page that names the link and where it
 * leads, and only its form deletes, through the deleteLink tool (its change limit counting for the API too).
 */
useWebServer();

const confirmAndDelete = (who: Someone, code: string) => who.visitor.submit(`/app/links/${code}/delete`, `/app/links/${code}/delete`, {});
const getLink = (who: Someone, code: string) => call(server, 'getLink', { code }, who.token);

describe('deleting a link', () => {
  it('asks first, naming the destination and the short addresses, and deletes nothing by asking', async () => {
    const who = await someone();
    const code = await makeLink(who.visitor, who.team, { name: 'delete-asked' });
    expect((await who.visitor.request('GET', `/app/links/${code}`)).body).toContain(`<a href="/app/links/${code}/delete" style="color:var(--bad)">Delete</a>`);
    const page = await who.visitor.request('GET', `/app/links/${code}/delete`);
    expect(page.status).toBe(200);
    expect(page.body).toContain(`<h1>Delete the link <code>${code}</code>?</h1>`);
    expect(page.body).toContain('It leads to <strong style="overflow-wrap:anywhere">https://example.com/page</strong>.');
    expect(page.body).toContain(`<li><code>${server.url}/${code}</code></li><li><code>${server.url}/delete-asked</code></li>`);
    expect(page.body).toContain('<button type="submit" class="danger">Delete the link</button>');
    expect(page.body).toContain(`<a href="/app/links/${code}" style="margin-left:1rem">Keep the link</a>`);
    expect((await getLink(who, code)).status).toBe(200);
  });

  it('deletes on the confirmation, landing on the dashboard with a notice; the link answers 404 everywhere', async () => {
    const who = await someone();
    const code = await makeLink(who.visitor, who.team, { name: 'delete-done' });
    const deleted = await confirmAndDelete(who, code);
    expect(deleted.status).toBe(303);
    expect(deleted.location).toBe(`/app?deleted=${code}`);
    expect(boxOf(await who.visitor.request('GET', deleted.location!), 'notice')).toBe(`Deleted ${server.url}/${code}.`);
    expectProblem(server, await getLink(who, code), 404, 'not_found', 'code');
    expect((await fetch(`${server.url}/delete-done`, { redirect: 'manual' })).status).toBe(404);
    expect((await who.visitor.request('GET', `/app/links/${code}/delete`)).status).toBe(404);
  });

  it('counts a delete against the changes per hour the API counts, saying so on the confirmation page', async () => {
    const who = await someone();
    const first = await makeLink(who.visitor, who.team);
    const second = await makeLink(who.visitor, who.team);
    await server.setLimits({ changesPerHour: 1 });
    expect((await confirmAndDelete(who, first)).status).toBe(303);
    const limited = await confirmAndDelete(who, second);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    const api = await call(server, 'deleteLink', { code: second }, who.token);
    expectProblem(server, api, 429, 'limit_reached');
    expect(boxOf(limited, 'alert')).toBe(api.body.detail);
    expect(limited.body).toContain('<button type="submit" class="danger">Delete the link</button>');
    expect((await getLink(who, second)).status).toBe(200);
  });

  it('refuses a form without its CSRF field (403), deleting nothing', async () => {
    const who = await someone();
    const code = await makeLink(who.visitor, who.team);
    const forged = await who.visitor.request('POST', `/app/links/${code}/delete`, {});
    expect(forged.status).toBe(403);
    expect(forged.body).toContain('The form expired or came from elsewhere; reload the page and try again.');
    expect((await getLink(who, code)).status).toBe(200);
  });

  it('is not found (404) for another team’s link, deleting nothing, and for an unknown code', async () => {
    const who = await someone();
    const code = await makeLink(who.visitor, who.team);
    await expectHiddenFromStrangers(code, 'delete', {});
    expect((await getLink(who, code)).status).toBe(200);
    expect((await who.visitor.request('GET', '/app/links/AAAAAAA/delete')).status).toBe(404);
  });
});
