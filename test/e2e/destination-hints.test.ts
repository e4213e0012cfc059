import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_LINKS_PER_CALL } from '../../src/domain/limits.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { memberWithTeam, type WebVisitor } from '../helpers/web-forms.js';

/**
 * The forms that take a destination say what one may be in the operator's destinations mode (docs/behaviour.md
 * "Links to private addresses"): on a private instance, nobody is told that `http://wiki/` needs https.
 */
let server: TestServer;
let web: { visitor: WebVisitor; team: string };
let code: string;

beforeAll(async () => {
  server = await startServer();
  await server.setLimits({ signupsPerHour: 1_000, teamsPerHour: 1_000 });
  web = await memberWithTeam(server.url, 'hints@example.com', 'Hints');
  const made = await web.visitor.submit('/app', '/app/links', { team: web.team, destination: 'https://example.com/hints' });
  code = /made=([A-Za-z0-9]{7})/.exec(made.location ?? '')![1]!;
});
afterAll(() => server.stop());

/** The hint beside each form's destination field: the make-link form, the edit form, the many-links form. */
async function hints(): Promise<string[]> {
  const pages = [
    ['/app', 'f-destination-hint'],
    [`/app/links/${code}/edit`, 'f-destination-hint'],
    ['/app/links/bulk', 'f-destinations-hint'],
  ] as const;
  return Promise.all(
    pages.map(async ([path, id]) => {
      const page = await web.visitor.request('GET', path);
      expect(page.status).toBe(200);
      return new RegExp(`id="${id}">([^<]*)<`).exec(page.body)?.[1] ?? `no hint on ${path}`;
    }),
  );
}

describe('the destination field', () => {
  it('says https in public mode and names intranet addresses in private mode, from the very next page', async () => {
    expect(await hints()).toEqual([
      'An https address.',
      'An https address. The short link and printed QR codes follow at once.',
      `An https address, one a line, up to ${MAX_LINKS_PER_CALL}. Each is made on its own: a refused line does not stop the others.`,
    ]);
    await server.app.ctx.store.settings.setServiceSettings({ destinations: 'private' });
    expect(await hints()).toEqual([
      'An https or http address, intranet names such as http://wiki/ included.',
      'An https or http address, intranet names such as http://wiki/ included. The short link and printed QR codes follow at once.',
      `An https or http address, intranet names such as http://wiki/ included, one a line, up to ${MAX_LINKS_PER_CALL}. Each is made on its own: a refused line does not stop the others.`,
    ]);
  });
});
