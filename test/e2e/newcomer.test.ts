import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectProblem, startServer, type TestServer } from '../helpers/server.js';

/** What a new user stumbled on in their first hour: each answer now reads as they would expect. */
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

describe('navigation', () => {
  it('marks "Sign up" as the current page on /signup, and "Sign in" on /signin', async () => {
    const signup = await (await fetch(`${server.url}/signup`)).text();
    expect(signup).toContain('<a href="/signup" aria-current="page">Sign up</a>');
    expect(signup).toContain('<a href="/signin">Sign in</a>');
    const signin = await (await fetch(`${server.url}/signin`)).text();
    expect(signin).toContain('<a href="/signin" aria-current="page">Sign in</a>');
    expect(signin).toContain('<a href="/signup">Sign up</a>');
  });
});

describe('favicon', () => {
  it('answers /favicon.ico with an icon file and /favicon.svg with SVG, cached for a day', async () => {
    const ico = await fetch(`${server.url}/favicon.ico`);
    expect(ico.status).toBe(200);
    expect(ico.headers.get('content-type')).toBe('image/x-icon');
    expect(ico.headers.get('cache-control')).toBe('public, max-age=86400');
    const bytes = Buffer.from(await ico.arrayBuffer());
    expect([...bytes.subarray(0, 4)]).toEqual([0, 0, 1, 0]); // the ICO header: reserved 0, type 1 (icon)
    const svg = await fetch(`${server.url}/favicon.svg`);
    expect(svg.status).toBe(200);
    expect(svg.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(await svg.text()).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  });

  it('every page names it', async () => {
    for (const path of ['/', '/signin', '/no-such-link']) {
      expect(await (await fetch(`${server.url}${path}`)).text(), path).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml">');
    }
  });
});

describe('the wording of a missing param', () => {
  it('createLink without team: "team is required."', async () => {
    const alice = await server.person();
    const reply = await call(server, 'createLink', { destination: 'https://example.com/' }, alice.token);
    expectProblem(server, reply, 400, 'bad_request', 'team');
    expect(reply.body.detail).toBe('team is required.');
  });

  it('an unknown param and a wrong type keep saying what is wrong', async () => {
    const alice = await server.person();
    const unknown = await call(server, 'listTeams', { colour: 'red' }, alice.token);
    expectProblem(server, unknown, 400, 'bad_request', 'colour');
    expect(unknown.body.detail).toBe('colour is not a known param.');
    const wrong = await call(server, 'createLink', { team: 7, destination: 'https://example.com/' }, alice.token);
    expectProblem(server, wrong, 400, 'bad_request', 'team');
    expect(wrong.body.detail).toBe('team: Invalid input: expected string, received number.');
  });

  it('a createLinks item without destination: "links[0].destination is required."', async () => {
    const alice = await server.person();
    const reply = await call(server, 'createLinks', { team: alice.teamId, links: [{ name: 'nodest' }] }, alice.token);
    expect(reply.status).toBe(200);
    expect(reply.body.results).toEqual([
      { link: null, status: 400, code: 'bad_request', message: 'links[0].destination is required.' },
    ]);
  });
});
