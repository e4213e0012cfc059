import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startServer, type Actor, type TestServer } from '../helpers/server.js';

/** Short addresses as people type them: names in any case, a trailing slash, QR codes by name, robots.txt. */
const BAD_FORMAT = 'Unknown format: ask for format=svg (the default) or format=png.';
let server: TestServer;
let alice: Actor;
let code: string;

beforeAll(async () => {
  server = await startServer();
  alice = await server.person();
  const made = await call(server, 'createLink', { team: alice.teamId, destination: 'https://example.com/launch', name: 'launch' }, alice.token);
  expect(made.status).toBe(200);
  code = made.body.code;
});
afterAll(() => server.stop());

function visit(path: string, method = 'GET') {
  return fetch(`${server.url}${path}`, { method, redirect: 'manual' });
}

async function expectRedirect(path: string, location: string, method = 'GET') {
  const res = await visit(path, method);
  expect(res.status, path).toBe(302);
  expect(res.headers.get('location'), path).toBe(location);
}

async function bytesOf(path: string): Promise<Buffer> {
  const res = await visit(path);
  expect(res.status, path).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

/** `code` with each letter's case turned: still a code's shape (it keeps an uppercase letter), yet no code. */
function swapCase(text: string): string {
  return [...text].map((char) => (char === char.toUpperCase() ? char.toLowerCase() : char.toUpperCase())).join('');
}

describe('names in any case', () => {
  it('redirects /Launch and /LAUNCH as /launch', async () => {
    for (const path of ['/launch', '/Launch', '/LAUNCH']) await expectRedirect(path, 'https://example.com/launch');
    await expectRedirect('/Launch', 'https://example.com/launch', 'HEAD');
  });

  it('keeps codes case-sensitive: a code in another case is the not-found page', async () => {
    await expectRedirect(`/${code}`, 'https://example.com/launch');
    for (const path of [`/${swapCase(code)}`, `/${code.toLowerCase()}`]) {
      const res = await visit(path);
      expect(res.status, path).toBe(404);
      expect(await res.text(), path).toContain('<h1>Not found</h1><p>There is no short link at this address.</p>');
    }
  });

  it('forgets a spelling it answered once the link is renamed, and finds the new name in any case', async () => {
    const own = await call(server, 'createLink', { team: alice.teamId, destination: 'https://example.com/before', name: 'before' }, alice.token);
    // Asked first, so the answer is cached.
    await expectRedirect('/Before', 'https://example.com/before');
    const renamed = await call(server, 'renameLink', { code: own.body.code, name: 'after' }, alice.token);
    expect(renamed.status).toBe(200);
    for (const path of ['/Before', '/before']) expect((await visit(path)).status, path).toBe(404);
    await expectRedirect('/AFTER', 'https://example.com/before');
  });
});

describe('a trailing slash', () => {
  it('is ignored on a name and on a code, without a redirect to the slashless address', async () => {
    for (const path of ['/launch/', '/Launch/', `/${code}/`]) await expectRedirect(path, 'https://example.com/launch');
  });

  it('is one slash at most', async () => {
    expect((await visit('/launch//')).status).toBe(404);
  });
});

describe('QR codes by name', () => {
  it('serves the same SVG and PNG for /<name>/qr in any case as for /<code>/qr', async () => {
    for (const query of ['', '?format=svg', '?format=png']) {
      const byCode = await bytesOf(`/${code}/qr${query}`);
      for (const path of ['/launch/qr', '/Launch/qr', '/LAUNCH/qr/', `/${code}/qr/`]) {
        expect((await bytesOf(`${path}${query}`)).equals(byCode), `${path}${query}`).toBe(true);
      }
    }
    expect((await visit('/launch/qr?format=png')).headers.get('content-type')).toBe('image/png');
    expect((await visit('/Launch/qr')).headers.get('content-type')).toBe('image/svg+xml');
  });

  it('answers 404 for a name no link has', async () => {
    expect((await visit('/no-such-name/qr')).status).toBe(404);
  });
});

describe('?format= of a QR code', () => {
  it('answers 400 naming the formats for anything but svg or png, empty included', async () => {
    for (const path of [`/${code}/qr?format=gif`, `/${code}/qr?format=`, '/Launch/qr?format=SVG', '/launch/qr/?format=jpeg']) {
      const res = await visit(path);
      expect(res.status, path).toBe(400);
      expect(res.headers.get('content-type'), path).toBe('text/plain; charset=utf-8');
      expect(await res.text(), path).toBe(BAD_FORMAT);
    }
  });

  it('costs the client address nothing of its budget', async () => {
    const own = await startServer();
    try {
      const bob = await own.person();
      const made = await call(own, 'createLink', { team: bob.teamId, destination: 'https://example.com/' }, bob.token);
      await own.setLimits({ callsPerMinute: 2 });
      const statuses = [];
      for (const format of ['gif', 'gif', 'gif', 'png', 'svg', 'png']) statuses.push((await fetch(`${own.url}/${made.body.code}/qr?format=${format}`)).status);
      expect(statuses).toEqual([400, 400, 400, 200, 200, 429]);
    } finally {
      await own.stop();
    }
  });
});

describe('robots.txt', () => {
  it('tells every crawler to keep off the short links, the home page aside', async () => {
    const res = await visit('/robots.txt');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await res.text()).toBe('User-agent: *\nAllow: /$\nDisallow: /\n');
    const head = await visit('/robots.txt', 'HEAD');
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });
});
