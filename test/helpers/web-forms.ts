import { expect } from 'vitest';
import { startServer, type TestServer } from './server.js';

export interface WebPage {
  status: number;
  headers: Headers;
  body: string;
  location: string | null;
}

export const WEB_PASSWORD = 'correct horse battery';

/**
 * One browser without JavaScript on the web app: cookies kept by hand, forms posted with the CSRF field of the page
 * they are on. `address` is sent as `X-Forwarded-For`, which counts as the client address when the server trusts
 * loopback as its proxy (`TRUST_PROXY=127.0.0.1`), so one test can be many networks.
 */
export class WebVisitor {
  /** Every CSRF field this visitor sent, and every cookie value it was given: secrets a log must never hold. */
  readonly secretsSeen = new Set<string>();

  constructor(
    private readonly baseUrl: string,
    public address: string | null = null,
    readonly cookies = new Map<string, string>(),
  ) {}

  /** The same browser on another address of the service (another process): its cookies shared from now on. */
  at(baseUrl: string): WebVisitor {
    return new WebVisitor(baseUrl, this.address, this.cookies);
  }

  async request(method: string, path: string, form?: Record<string, string>): Promise<WebPage> {
    const headers: Record<string, string> = { cookie: this.cookieHeader() };
    if (this.address !== null) headers['x-forwarded-for'] = this.address;
    if (form) headers['content-type'] = 'application/x-www-form-urlencoded';
    const res = await fetch(`${this.baseUrl}${path}`, {
      method,
      redirect: 'manual',
      headers,
      ...(form ? { body: new URLSearchParams(form).toString() } : {}),
    });
    for (const line of res.headers.getSetCookie()) {
      const pair = line.split(';')[0]!;
      const at = pair.indexOf('=');
      if (/max-age=0/i.test(line) || at === pair.length - 1) this.cookies.delete(pair.slice(0, at));
      else {
        this.cookies.set(pair.slice(0, at), pair.slice(at + 1));
        this.secretsSeen.add(pair.slice(at + 1));
      }
    }
    return { status: res.status, headers: res.headers, body: await res.text(), location: res.headers.get('location') };
  }

  /** GETs `formPath`, then POSTs its form to `action` with the page's CSRF field, as a browser would. */
  async submit(formPath: string, action: string, fields: Record<string, string>): Promise<WebPage> {
    const form = await this.request('GET', formPath);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(form.body)?.[1];
    if (csrf === undefined) throw new Error(`no _csrf field on ${formPath} (status ${form.status})`);
    this.secretsSeen.add(csrf);
    return this.request('POST', action, { _csrf: csrf, ...fields });
  }

  /**
   * GETs `formPath`, then POSTs its multipart form to `action` as a browser would: the page's CSRF field, the
   * fields, and `file` as the form's file input `name` (none when null).
   */
  async upload(formPath: string, action: string, fields: Record<string, string>, file: { name: string; filename: string; content: string | Buffer } | null): Promise<WebPage> {
    const page = await this.request('GET', formPath);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page.body)?.[1];
    if (csrf === undefined) throw new Error(`no _csrf field on ${formPath} (status ${page.status})`);
    this.secretsSeen.add(csrf);
    const form = new FormData();
    form.set('_csrf', csrf);
    for (const [name, value] of Object.entries(fields)) form.set(name, value);
    if (file !== null) form.set(file.name, new Blob([typeof file.content === 'string' ? file.content : new Uint8Array(file.content)], { type: 'text/csv' }), file.filename);
    return this.post(action, form);
  }

  /** POSTs a body fetch encodes itself (a FormData: multipart), with this visitor's cookies. */
  async post(action: string, body: FormData): Promise<WebPage> {
    const headers: Record<string, string> = { cookie: this.cookieHeader() };
    if (this.address !== null) headers['x-forwarded-for'] = this.address;
    const res = await fetch(`${this.baseUrl}${action}`, { method: 'POST', redirect: 'manual', headers, body });
    return { status: res.status, headers: res.headers, body: await res.text(), location: res.headers.get('location') };
  }

  /** The Cookie header this visitor sends, for a request made without it (fetch with redirects left alone). */
  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  signUp(email: string): Promise<WebPage> {
    return this.submit('/signup', '/signup', { email, password: WEB_PASSWORD });
  }

  makeTeam(name: string): Promise<WebPage> {
    return this.submit('/teams', '/teams', { name });
  }

  /**
   * What anyone can do in a minute: sign up, agree to the terms, make a team and a personal token for it.
   * Returns the token.
   */
  async newAccountWithToken(email: string): Promise<string> {
    expect((await this.signUp(email)).status).toBe(303);
    expect((await this.submit('/welcome', '/welcome', { agree: 'yes' })).status).toBe(303);
    const team = await this.makeTeam('Team');
    expect(team.status).toBe(303);
    const teamId = /^\/teams\/(team_[A-Za-z0-9]+)/.exec(team.location ?? '')![1]!;
    const made = await this.submit('/developers', '/developers/tokens', { team: teamId });
    expect(made.status).toBe(303);
    // Shown once, on the page the form redirects to.
    const shown = await this.request('GET', made.location!);
    return /id="new-token"[^>]*value="(sl_[A-Za-z0-9_]+)"/.exec(shown.body)![1]!;
  }
}

/** A server for web tests that sign many people up: sign-ups and new teams kept off the limits' way. */
export async function startWebServer(): Promise<TestServer> {
  const server = await startServer();
  await server.setLimits({ signupsPerHour: 1_000, teamsPerHour: 1_000 });
  return server;
}

/** A new browser that signed up as `email`, agreed to the terms and made a team named `teamName`. */
export async function memberWithTeam(baseUrl: string, email: string, teamName: string): Promise<{ visitor: WebVisitor; team: string }> {
  const visitor = new WebVisitor(baseUrl);
  expect((await visitor.signUp(email)).status).toBe(303);
  expect((await visitor.submit('/welcome', '/welcome', { agree: 'yes' })).status).toBe(303);
  const made = await visitor.makeTeam(teamName);
  return { visitor, team: /^\/teams\/(team_[A-Za-z0-9]+)/.exec(made.location!)![1]! };
}
