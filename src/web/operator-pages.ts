import type { RequestHandler, Response } from 'express';
import { ApiError, type ErrorCode } from '../errors.js';
import { alertBox, csrfField, noticeBox } from '../views/forms.js';
import { html, type Html } from '../views/html.js';
import { navItem } from '../views/nav.js';
import { notFound, render, signedInOnly, type PageDeps } from './request.js';

type Handler = Parameters<typeof signedInOnly>[1];

/**
 * Wraps a handler of an operator page (`/admin...`, marked with `shortlinks person admin`). Anyone else signed in
 * gets the not-found page (404), the answer for an address that names nothing, so the pages do not tell that they
 * exist; signed out leads to sign-in, as every page. Asked on every request, so `person admin --off` takes effect on
 * the next one.
 */
export function operatorOnly(deps: PageDeps, handler: Handler): RequestHandler {
  return signedInOnly(deps, async (req, res, me) => {
    if (!me.person.operator) return notFound(res);
    await handler(req, res, me);
  });
}

/**
 * A refusal of the operator layer (src/operator, which the CLI runs too, so its words are the CLI's: `no link has
 * the code "x"`) as a sentence on a page.
 */
export function sentence(message: string): string {
  return `${message.charAt(0).toUpperCase()}${message.slice(1)}.`;
}

/**
 * The operator layer's refusal with this code, for the page to show; anything else (a fault, the database out of
 * reach) is thrown on, to be answered as on every page.
 */
export function refusal(error: unknown, code: ErrorCode): ApiError {
  if (error instanceof ApiError && error.code === code) return error;
  throw error;
}

const SECTIONS = [
  ['/admin', 'Moderation'],
  ['/admin/links', 'Links'],
  ['/admin/blocklist', 'Blocklist'],
  ['/admin/limits', 'Limits'],
  ['/admin/settings', 'Settings'],
] as const;

/** Which operator page is open, by its address. */
export type OperatorSection = (typeof SECTIONS)[number][0];

/** An operator page: the operator pages' own navigation above its body, the header marking "Operator". */
export function renderOperatorPage(res: Response, status: number, title: string, section: OperatorSection, body: Html): void {
  const items = SECTIONS.map(([href, label]) => navItem(href, label, href === section));
  render(
    res,
    status,
    title,
    html`<nav aria-label="Operator pages"><ul style="display:flex;flex-wrap:wrap;gap:.25rem 1.25rem;list-style:none;padding:0;margin:0 0 1rem">${items}</ul></nav>${body}`,
    'admin',
  );
}

/**
 * An operator page that is one form of what `limits set` or `settings set` change: its heading, what the last save
 * did (`notice`) or why it was refused (`alert`), the fields, and a save button.
 */
export function operatorFormPage(
  res: Response,
  status: number,
  page: { title: string; section: OperatorSection; notice: string | undefined; alert: string | undefined; csrf: string; fields: Html[]; save: string },
): void {
  renderOperatorPage(
    res,
    status,
    page.title,
    page.section,
    html`<h1>${page.title}</h1>${noticeBox(page.notice)}${alertBox(page.alert)}
<form method="post" action="${page.section}" class="card" novalidate>${csrfField(page.csrf)}
${page.fields}
<button type="submit">${page.save}</button>
</form>`,
  );
}
