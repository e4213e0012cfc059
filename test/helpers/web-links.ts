import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/domain/limits.js';
import type { TestServer } from './server.js';
import { memberWithTeam, startWebServer, type WebPage, type WebVisitor } from './web-forms.js';

/**
 * What the end-to-end tests of a link's action pages (test/e2e/web-link-*.test.ts) share: one server per file whose
 * limits are put back after each test, people who signed up in the web app with a team and an API token, and
 * readers of what a page shows beside a field.
 */
export let server: TestServer;
let people = 0;

export function useWebServer(): void {
  beforeAll(async () => {
    server = await startWebServer();
  });
  afterAll(() => server.stop());
  afterEach(async () => {
    await server.setLimits({ ...DEFAULT_LIMITS, signupsPerHour: 1_000, teamsPerHour: 1_000 });
  });
}

export interface Someone {
  visitor: WebVisitor;
  team: string;
  /** A personal token of the same person for the team, to ask the API what the pages did. */
  token: string;
}

/** A person who signed up in the web app, agreed to the terms and made a team; with a token for the API. */
export async function someone(): Promise<Someone> {
  const email = `web-link${++people}@example.com`;
  const { visitor, team } = await memberWithTeam(server.url, email, 'Crew');
  const person = (await server.app.ctx.store.people.findByEmail(email))!;
  return { visitor, team, token: await server.token(person.id, team) };
}

/** Makes a link on the dashboard; returns its code. */
export async function makeLink(visitor: WebVisitor, team: string, fields: Record<string, string> = {}): Promise<string> {
  const made = await visitor.submit('/app', '/app/links', { team, destination: 'https://example.com/page', ...fields });
  expect(made.status).toBe(303);
  return /made=([A-Za-z0-9]{7})/.exec(made.location!)![1]!;
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
const unescape = (text: string) => text.replace(/&(amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity]!);

/** The message shown beside a form's field (`f-<name>`), as a person reads it; undefined when there is none. */
export function faultOf(page: WebPage, field: string): string | undefined {
  const match = new RegExp(`<p class="error" id="f-${field.replace(/[.[\]]/g, '\\$&')}-error">([^<]*)</p>`).exec(page.body);
  return match ? unescape(match[1]!) : undefined;
}

/** The text of a page's element of `className` (`notice`, `alert`), tags removed. */
export function boxOf(page: WebPage, className: string): string | undefined {
  const match = new RegExp(`<p class="${className}"[^>]*>(.*?)</p>`, 's').exec(page.body);
  return match ? unescape(match[1]!.replace(/<[^>]+>/g, '')) : undefined;
}

/** A form field's value as the page shows it. */
export function valueOf(page: WebPage, field: string): string | undefined {
  const match = new RegExp(`<input id="f-${field}" name="${field}" type="[a-z]+" value="([^"]*)"`).exec(page.body);
  return match ? unescape(match[1]!) : undefined;
}

/** The CSRF field of a page. */
export function csrfOf(page: WebPage): string {
  return /name="_csrf" value="([^"]+)"/.exec(page.body)![1]!;
}

/**
 * Asserts that someone outside the link's team finds nothing at `/app/links/<code>/<action>`: the page and its form
 * (posted with their own valid CSRF field) are the 404 page, which does not show the link's destination.
 */
export async function expectHiddenFromStrangers(code: string, action: string, fields: Record<string, string>): Promise<void> {
  const stranger = await someone();
  const page = await stranger.visitor.request('GET', `/app/links/${code}/${action}`);
  expect(page.status).toBe(404);
  expect(page.body).not.toContain('example.com/page');
  const csrf = csrfOf(await stranger.visitor.request('GET', '/app'));
  const posted = await stranger.visitor.request('POST', `/app/links/${code}/${action}`, { _csrf: csrf, ...fields });
  expect(posted.status).toBe(404);
  expect(posted.body).toContain('<h1>Not found</h1><p>No link has that code.</p>');
}
