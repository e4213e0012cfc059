import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escapeHtml } from '../../src/views/layout.js';
import { call, expectProblem, type TestServer } from '../helpers/server.js';
import { memberWithTeam, startWebServer, WebVisitor, type WebPage } from '../helpers/web-forms.js';

/**
 * The dashboard's list and the making of links, over real HTTP as a browser without JavaScript uses them: search,
 * state filter and paging through the teamLinks tool, the count against the team's limit, each link's clicks in the
 * last 7 days, every fault of the form at once, and up to 50 links made at once by createLinks. What the dashboard
 * makes counts against the same limits as the API.
 */
let server: TestServer;
let people = 0;
// Room to make many links in one team: only the team's 25 links (maxLinksPerTeam) stay in the way.
const ROOMY = { perHour: 1_000, perDay: 1_000, firstWeekPerDay: 1_000 };
beforeAll(async () => {
  server = await startWebServer();
  await server.setLimits(ROOMY);
});
afterAll(() => server.stop());

async function someone(teamName = 'Crew') {
  const email = `link-list${++people}@example.com`;
  const { visitor, team } = await memberWithTeam(server.url, email, teamName);
  const person = (await server.app.ctx.store.people.findByEmail(email))!;
  return { visitor, team, token: await server.token(person.id, team) };
}

const get = (visitor: WebVisitor, path: string) => visitor.request('GET', path);

async function makeOnDashboard(visitor: WebVisitor, team: string, fields: Record<string, string>): Promise<string> {
  const made = await visitor.submit('/app', '/app/links', { team, ...fields });
  expect(made.status).toBe(303);
  return /^\/app\?made=([A-Za-z0-9]{7})$/.exec(made.location!)![1]!;
}

/** The rows of the list as shown: each link's code and its "N clicks in 7 days". */
function rowsOf(page: WebPage): Array<{ code: string; recent: string }> {
  const pattern = new RegExp(`<ul class="addresses"><li><a href="${server.url}/([A-Za-z0-9]{7})">[\\s\\S]*?<span class="recent">([^<]+)</span>`, 'g');
  return [...page.body.matchAll(pattern)].map((m) => ({ code: m[1]!, recent: m[2]! }));
}

const codesOf = (page: WebPage) => rowsOf(page).map((row) => row.code);

/** The address a paging link leads to, as the browser would read it from the attribute. */
function pagingHref(page: WebPage, rel: 'next' | 'prev'): string | null {
  const href = new RegExp(`<a href="([^"]+)" rel="${rel}">`).exec(page.body)?.[1];
  return href === undefined ? null : href.replaceAll('&amp;', '&');
}

describe('the list of links', () => {
  it('shows the count against the limit and each link’s clicks in the last 7 days', async () => {
    const { visitor, team } = await someone();
    const busy = await makeOnDashboard(visitor, team, { destination: 'https://example.com/busy' });
    const once = await makeOnDashboard(visitor, team, { destination: 'https://example.com/once' });
    const quiet = await makeOnDashboard(visitor, team, { destination: 'https://example.com/quiet' });
    const { store } = server.app.ctx;
    const idOf = async (code: string) => (await store.links.findByCode(code))!.id;
    // Today is 2026-11-21 on the test clock: the 7 days are 15 to 21 November; the 14th is outside.
    await store.clicks.add(
      new Map([
        [await idOf(busy), new Map([['2026-11-21', 2], ['2026-11-15', 3], ['2026-11-14', 100]])],
        [await idOf(once), new Map([['2026-11-18', 1]])],
      ]),
    );
    const page = await get(visitor, '/app');
    expect(page.status).toBe(200);
    expect(page.body).toContain('<p class="count">3 of 25 links</p>');
    // Newest first.
    expect(rowsOf(page)).toEqual([
      { code: quiet, recent: '0 clicks in 7 days' },
      { code: once, recent: '1 click in 7 days' },
      { code: busy, recent: '5 clicks in 7 days' },
    ]);
    // A Copy button per address, hidden until our own script shows it.
    expect(page.body).toContain(`<button type="button" class="quiet" data-copy="${server.url}/${busy}" aria-label="Copy ${server.url}/${busy}" hidden>Copy</button>`);
    expect(page.body).toContain('<script src="/app/scripts/page.js" defer></script>');
    expect(page.headers.get('content-security-policy')).toMatch(/; script-src 'self'$/);
    // The list leaves deletion to a confirmation page: no button on the list deletes.
    expect(page.body).toContain(`<a href="/app/links/${busy}/delete" aria-label="Delete ${server.url}/${busy}…">Delete…</a>`);
    expect(page.body).not.toMatch(/action="\/app\/links\/delete"/);
  });

  it('searches with the API’s q and filters by state, keeping both in the form', async () => {
    const { visitor, team, token } = await someone();
    const poster = await makeOnDashboard(visitor, team, { destination: 'https://example.com/spring', note: 'for the poster' });
    const named = await makeOnDashboard(visitor, team, { destination: 'https://example.org/other', name: 'poster-two' });
    const plain = await makeOnDashboard(visitor, team, { destination: 'https://example.net/plain' });
    await server.app.ctx.store.links.setState(plain, 'flagged', server.clock.now());

    const found = await get(visitor, '/app?q=POSTER');
    expect(found.status).toBe(200);
    expect(codesOf(found)).toEqual([named, poster]);
    const api = await call(server, 'listLinks', { team, q: 'POSTER' }, token);
    expect(codesOf(found)).toEqual(api.body.data.map((l: { code: string }) => l.code));
    expect(found.body).toContain('id="find-q" name="q" type="text" value="POSTER"');
    expect(found.body).toContain('<p class="matches" role="status">2 links match.</p>');
    expect(await get(visitor, '/app')).not.toMatchObject({ body: expect.stringContaining('class="matches"') });

    const flagged = await get(visitor, '/app?state=flagged');
    expect(codesOf(flagged)).toEqual([plain]);
    expect(flagged.body).toContain('<p class="matches" role="status">1 link matches.</p>');
    expect(flagged.body).toContain('<span class="state state-flagged">flagged</span>');
    expect(flagged.body).toContain('<option value="flagged" selected>flagged</option>');
    expect(codesOf(await get(visitor, '/app?state=active&q=example'))).toEqual([named, poster]);

    const none = await get(visitor, '/app?q=nowhere-at-all');
    expect(codesOf(none)).toEqual([]);
    expect(none.body).toContain('No links match.');
    // The count is the team's, whatever the search.
    expect(none.body).toContain('<p class="count">3 of 25 links</p>');
  });

  it('pages a team with the API’s cursors, older and back to newer, keeping the search', async () => {
    const { visitor, team, token } = await someone();
    const made = await call(server, 'createLinks', { team, links: Array.from({ length: 23 }, (_, i) => ({ destination: `https://example.com/page/${i}` })) }, token);
    expect(made.status).toBe(200);
    const newestFirst = (made.body.results as Array<{ link: { code: string } }>).map((r) => r.link.code).reverse();

    // A search of more than a page counts every match, on each of its pages.
    const matching = await get(visitor, '/app?q=example.com%2Fpage');
    expect(matching.body).toContain('<p class="matches" role="status">23 links match.</p>');
    expect((await get(visitor, pagingHref(matching, 'next')!)).body).toContain('<p class="matches" role="status">23 links match.</p>');

    const first = await get(visitor, '/app');
    expect(codesOf(first)).toEqual(newestFirst.slice(0, 10));
    expect(pagingHref(first, 'prev')).toBeNull();
    const secondHref = pagingHref(first, 'next')!;
    expect(secondHref).toMatch(new RegExp(`^/app\\?team=${team}&after=[A-Za-z0-9_.-]+$`));

    const second = await get(visitor, secondHref);
    expect(second.status).toBe(200);
    expect(codesOf(second)).toEqual(newestFirst.slice(10, 20));
    const third = await get(visitor, pagingHref(second, 'next')!);
    expect(codesOf(third)).toEqual(newestFirst.slice(20));
    expect(pagingHref(third, 'next')).toBeNull();

    const backToSecond = await get(visitor, pagingHref(third, 'prev')!);
    expect(codesOf(backToSecond)).toEqual(newestFirst.slice(10, 20));
    const backToFirst = pagingHref(backToSecond, 'prev')!;
    expect(backToFirst).toBe(`/app?team=${team}`);
    expect(codesOf(await get(visitor, backToFirst))).toEqual(newestFirst.slice(0, 10));

    // With a search, the cursors are the search's: 23 links hold "page/1" in 11 of them (1, 10-19).
    const searched = await get(visitor, '/app?q=page%2F1');
    expect(codesOf(searched)).toHaveLength(10);
    const more = pagingHref(searched, 'next')!;
    expect(more).toContain('q=page%2F1');
    expect(codesOf(await get(visitor, more))).toHaveLength(1);
    // A cursor of another search is the API's cursor_mismatch, beside nothing: a 400 saying so.
    const mismatch = await get(visitor, more.replace('q=page%2F1', 'q=page'));
    expect(mismatch.status).toBe(400);
    expect(mismatch.body).toMatch(/<p class="alert" role="alert">[^<]+<\/p>/);
  });

  it('answers a bad search, state, cursor or team with the API’s status and message, beside the field', async () => {
    const { visitor, team, token } = await someone();
    const cases = [
      { query: 'state=gone', params: { team, state: 'gone' }, field: 'state' },
      { query: 'q=%00', params: { team, q: '\u0000' }, field: 'q' },
      { query: `team=${team}&after=not-a-cursor`, params: { team, after: 'not-a-cursor' }, field: null },
      { query: 'team=team_nope', params: { team: 'team_nope' }, field: 'team' },
    ];
    for (const { query, params, field } of cases) {
      const api = await call(server, 'listLinks', params, token);
      expect(api.status, query).toBeGreaterThanOrEqual(400);
      const page = await get(visitor, `/app?${query}`);
      expect(page.status, query).toBe(api.status);
      const detail = escapeHtml(api.body.detail);
      expect(page.body, query).toContain(field ? `id="find-${field}-error">${detail}<` : `<p class="alert" role="alert">${detail}</p>`);
    }
  });
});

describe('making one link', () => {
  it('shows every fault of the form at once, beside its field, and makes nothing', async () => {
    const { visitor, team, token } = await someone();
    const refused = await visitor.submit('/app', '/app/links', { team, destination: 'http://example.com/', name: 'No!', note: 'bad <note>' });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatch(/id="f-destination-error">[^<]+</);
    expect(refused.body).toMatch(/id="f-name-error">[^<]+</);
    expect(refused.body).toMatch(/id="f-note-error">[^<]+</);
    // Each message is the API's own for that field alone.
    for (const [field, params] of [
      ['name', { name: 'No!' }],
      ['note', { note: 'bad <note>' }],
    ] as const) {
      const api = await call(server, 'createLink', { team, destination: 'https://example.com/', ...params }, token);
      expect(api.status).toBe(400);
      expect(refused.body).toContain(`id="f-${field}-error">${escapeHtml(api.body.detail)}<`);
    }
    // The values stay, to fix.
    expect(refused.body).toContain('value="No!"');
    expect(refused.body).toContain('value="bad &lt;note&gt;"');
    const listed = await call(server, 'listLinks', { team }, token);
    expect(listed.body.data).toEqual([]);
  });
});

describe('making one link: a taken name', () => {
  it('shows a name taken (or kept by another team) beside a bad destination at once, and makes nothing', async () => {
    const { visitor, team, token } = await someone();
    const other = await someone();
    const theirs = await call(server, 'createLink', { team: other.team, destination: 'https://example.com/', name: 'list-theirs' }, other.token);
    await call(server, 'renameLink', { code: theirs.body.code, name: 'list-theirs-now' }, other.token);
    for (const name of ['list-theirs-now', 'list-theirs']) {
      const refused = await visitor.submit('/app', '/app/links', { team, destination: 'http://example.com/', name, note: '' });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatch(/id="f-destination-error">[^<]+</);
      const api = await call(server, 'createLink', { team, destination: 'https://example.com/', name }, token);
      expect(api.body.code).toBe('name_taken');
      expect(refused.body).toContain(`id="f-name-error">${escapeHtml(api.body.detail)}<`);
    }
    expect((await call(server, 'listLinks', { team }, token)).body.data).toEqual([]);
  });
});

describe('making links at once', () => {
  it('makes each good line and shows each refused one with the API’s message, leaving those to fix', async () => {
    const { visitor, team, token } = await someone();
    const pasted = ['https://example.com/one', 'http://example.com/insecure', '', '   https://example.com/two   ', 'not an address'].join('\r\n');
    const page = await visitor.submit('/app/links/bulk', '/app/links/bulk', { team, destinations: pasted });
    expect(page.status).toBe(200);
    expect(page.body).toContain('Made 2 links; refused 2 links.');
    const listed = await call(server, 'listLinks', { team }, token);
    const codes = (listed.body.data as Array<{ code: string; destination: string }>).map((l) => [l.destination, l.code]);
    expect(codes.map(([destination]) => destination)).toEqual(['https://example.com/two', 'https://example.com/one']);
    for (const [destination, code] of codes) {
      expect(page.body).toContain(`<li><p class="destination">${destination}</p><p><span class="made">Made</span> <a href="${server.url}/${code}">${server.url}/${code}</a>`);
    }
    for (const destination of ['http://example.com/insecure', 'not an address']) {
      const api = await call(server, 'createLink', { team, destination }, token);
      expect(api.status).toBe(400);
      expect(page.body).toContain(`<li><p class="destination">${destination}</p><p><span class="error">Refused:</span> ${escapeHtml(api.body.detail)}</p></li>`);
    }
    // Only the refused lines stay in the box: sending it again makes no line twice.
    expect(page.body).toContain('>http://example.com/insecure\nnot an address</textarea>');
  });

  it('answers a list of good lines with a redirect to the links made (a reload makes nothing)', async () => {
    const { visitor, team, token } = await someone();
    const made = await visitor.submit('/app/links/bulk', '/app/links/bulk', { team, destinations: 'https://example.com/a\nhttps://example.com/b' });
    expect(made.status).toBe(303);
    const listed = (await call(server, 'listLinks', { team }, token)).body.data as Array<{ code: string }>;
    const [b, a] = listed.map((l) => l.code);
    expect(made.location).toBe(`/app/links/bulk?team=${team}&made=${a},${b}`);
    const page = await get(visitor, made.location!);
    expect(page.status).toBe(200);
    expect(page.body).toContain('Made 2 links.');
    // Each line's destination beside its short address, in the order pasted.
    const line = (destination: string, code: string) =>
      `<li><p class="destination">${destination}</p><p><span class="made">Made</span> <a href="${server.url}/${code}">${server.url}/${code}</a>`;
    expect(page.body).toContain(line('https://example.com/a', a!));
    expect(page.body.indexOf(line('https://example.com/a', a!))).toBeLessThan(page.body.indexOf(line('https://example.com/b', b!)));
    expect(page.body).toContain(`<option value="${team}" selected>`);
    expect((await call(server, 'listLinks', { team }, token)).body.data).toHaveLength(2);
    // A code of another team's, put in the address by hand, shows nothing of that link.
    const stranger = await someone();
    const theirs = await get(stranger.visitor, made.location!.replace(team, stranger.team));
    expect(theirs.status).toBe(200);
    expect(theirs.body).not.toContain('https://example.com/a');
    expect(theirs.body).not.toContain(`${server.url}/${a}`);
  });

  it('refuses more than 50 lines, or none, beside the box, making nothing', async () => {
    const { visitor, team, token } = await someone();
    const lines = Array.from({ length: 51 }, (_, i) => `https://example.com/${i}`).join('\n');
    const tooMany = await visitor.submit('/app/links/bulk', '/app/links/bulk', { team, destinations: lines });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toContain('id="f-destinations-error">At most 50 destinations at once; this has 51. Nothing was made.<');
    const empty = await visitor.submit('/app/links/bulk', '/app/links/bulk', { team, destinations: '\n  \n' });
    expect(empty.status).toBe(400);
    expect(empty.body).toContain('id="f-destinations-error">Paste at least one destination, one a line.<');
    const notMine = await visitor.submit('/app/links/bulk', '/app/links/bulk', { team: 'team_nope', destinations: 'https://example.com/' });
    const apiNotMine = await call(server, 'createLinks', { team: 'team_nope', links: [{ destination: 'https://example.com/' }] }, token);
    expect(notMine.status).toBe(apiNotMine.status);
    expect(notMine.body).toContain(`id="f-team-error">${escapeHtml(apiNotMine.body.detail)}<`);
    expect((await call(server, 'listLinks', { team }, token)).body.data).toEqual([]);
  });
});

describe('limits shared with the API', () => {
  it('50 lines fill the team at 25, each further line refused as team_full, and then the API is refused too', async () => {
    const { visitor, team, token } = await someone();
    const lines = Array.from({ length: 50 }, (_, i) => `https://example.com/full/${i}`).join('\n');
    const page = await visitor.submit('/app/links/bulk', '/app/links/bulk', { team, destinations: lines });
    expect(page.status).toBe(200);
    expect(page.body).toContain('Made 25 links; refused 25 links.');
    const api = await call(server, 'createLink', { team, destination: 'https://example.com/more' }, token);
    expectProblem(server, api, 409, 'team_full');
    expect(page.body).toContain(`<span class="error">Refused:</span> ${escapeHtml(api.body.detail)}</p></li>`);
    expect(page.body.split('<span class="error">Refused:</span>')).toHaveLength(26);
    expect((await get(visitor, '/app')).body).toContain('<p class="count">25 of 25 links</p>');
    // And the one-link form says so too, above the form.
    const one = await visitor.submit('/app', '/app/links', { team, destination: 'https://example.com/one-more' });
    expect(one.status).toBe(409);
    expect(one.body).toContain(`<p class="alert" role="alert">${escapeHtml(api.body.detail)}</p>`);
  });

  it('links made on the dashboard count towards the hour limit of the API', async () => {
    const { visitor, team, token } = await someone();
    await server.setLimits({ perHour: 2 });
    try {
      await makeOnDashboard(visitor, team, { destination: 'https://example.com/h1' });
      await makeOnDashboard(visitor, team, { destination: 'https://example.com/h2' });
      const third = await visitor.submit('/app', '/app/links', { team, destination: 'https://example.com/h3' });
      expect(third.status).toBe(429);
      expect(third.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(third.body).toContain('The team made 2 links in the last hour.');
      expectProblem(server, await call(server, 'createLink', { team, destination: 'https://example.com/h4' }, token), 429, 'limit_reached');
    } finally {
      await server.setLimits({ perHour: ROOMY.perHour });
    }
  });
});
