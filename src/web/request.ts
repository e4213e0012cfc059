import type { Request, RequestHandler, Response } from 'express';
import type { Gate } from '../auth/gate.js';
import type { ToolContext } from '../tools/define-tool.js';
import { page } from '../views/layout.js';
import type { SignedIn, WebSessions } from '../auth/web-sessions.js';
import type { SignupMode } from '../domain/service-settings.js';
import { html, type Html } from '../views/html.js';
import { nav, type Section } from '../views/nav.js';

/** What every page group needs. */
export interface PageDeps {
  ctx: ToolContext;
  sessions: WebSessions;
  gate: Gate;
}

/** Sends a whole page; the header shows who is signed in, when known. */
export function render(res: Response, status: number, title: string, body: Html, section: Section = null): void {
  res.status(status).type('html').send(page(title, body, header(res, section).text));
}

/**
 * The header of this answer's page: who is signed in, when known, and for the signed out Sign up unless sign-up is
 * closed (the mode signupModeForHeader kept). Unknown (the settings could not be read, or an OAuth error page off
 * /authorize): not offered, so no page offers a sign-up that may be closed.
 */
export function header(res: Response, section: Section): Html {
  const me = (res.locals.signedIn as SignedIn | null | undefined) ?? null;
  return nav(me, section, signupOffered(res));
}

/** Whether this answer's page may offer sign-up: the mode signupModeForHeader kept is known and not closed. */
export function signupOffered(res: Response): boolean {
  const mode = res.locals.signupMode as SignupMode | undefined;
  return mode !== undefined && mode !== 'closed';
}

/** The not-found page: for addresses that name nothing, and for things the person may not see (never a 403). */
export function notFound(res: Response): void {
  render(res, 404, 'Not found', html`<h1>Not found</h1><p>There is nothing at this address. <a href="/">Home</a></p>`);
}

/** A form field's text; '' when absent or sent more than once (a browser never does that for a text field). */
export function text(req: Request, name: string): string {
  const value = (req.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
}

/** Every value of a repeated field (checkboxes). */
export function texts(req: Request, name: string): string[] {
  const value = (req.body as Record<string, unknown> | undefined)?.[name];
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

export function queryText(req: Request, name: string): string {
  const value = (req.query as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : '';
}

/**
 * Where to go after signing in: only a path of this site (`/…`, not `//host` or `/\host`, which browsers read as
 * another host), without control characters (browsers drop tabs and newlines, turning `/\t/host` into `//host`).
 */
export function safeNext(raw: string): string | null {
  if (raw.length === 0 || raw.length > 2048 || !raw.startsWith('/')) return null;
  if (/[\\\u0000-\u001f\u007f]/.test(raw) || raw.startsWith('//')) return null;
  try {
    const base = 'http://next.invalid';
    const url = new URL(raw, base);
    return url.origin === base ? raw : null;
  } catch {
    return null;
  }
}

/** Where a page that is a step on the way goes afterwards: its `next`, from the address or the form, when safe. */
export function nextOf(req: Request): string | null {
  return safeNext(queryText(req, 'next') || text(req, 'next'));
}

/** The hidden field that carries `next` through a form. */
export function nextField(next: string | null): Html {
  return next ? html`<input type="hidden" name="next" value="${next}">` : html``;
}

type Handler = (req: Request, res: Response, me: SignedIn) => Promise<void>;

/**
 * Wraps a handler for signed-in people. Signed out: to the sign-in page (coming back here afterwards). Signed in:
 * one call from the person's per-minute budget (shared with the API), then, until they took the first step, to
 * /welcome. POST handlers first check the form came from one of our own pages (403 otherwise).
 */
export function signedInOnly(deps: PageDeps, handler: Handler, options: { firstStep?: boolean } = {}): RequestHandler {
  return async (req: Request, res: Response) => {
    const isPost = req.method === 'POST';
    if (isPost) await deps.sessions.checkForm(req, res);
    const me = await deps.sessions.signedIn(req, res);
    const back = isPost ? '' : `?next=${encodeURIComponent(req.originalUrl)}`;
    if (!me) return res.redirect(303, `/signin${back}`);
    await deps.gate.count(res, me.person.id);
    if (!options.firstStep && me.person.agreedTermsAt === null) return res.redirect(303, `/welcome${back}`);
    await handler(req, res, me);
  };
}
