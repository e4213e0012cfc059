import type { Response } from 'express';
import type { OAuthClient } from '../store/ports.js';
import { escapeHtml, page } from '../web/layout.js';
import type { SignedIn } from '../web/session.js';
import { nav } from '../web/views/nav.js';
import type { AuthorizationRequest } from './authorize.js';
import { redirectHostOf } from './redirect-uris.js';
import { SCOPES } from './scopes.js';

/** Pages that grant access must never be framed (clickjacking) or cached. */
function sendPage(res: Response, status: number, title: string, body: string): void {
  const me = (res.locals.signedIn as SignedIn | null | undefined) ?? null;
  res
    .status(status)
    .set('Cache-Control', 'no-store')
    .set('X-Frame-Options', 'DENY')
    .set('Content-Security-Policy', "frame-ancestors 'none'")
    .type('html')
    .send(page(title, body, nav(me, null).text));
}

/** A page with a heading and one sentence (errors of the OAuth pages). */
export function oauthPage(res: Response, status: number, title: string, message: string): void {
  sendPage(res, status, title, `<h1>${escapeHtml(title)}</h1>\n<p class="alert" role="alert">${escapeHtml(message)}</p>`);
}

/** What the consent page and the assistants page call a client: its own (unverified) name, or where it lives. */
export function clientLabel(client: Pick<OAuthClient, 'id' | 'name'>): string {
  if (client.name) return client.name;
  if (client.id.startsWith('https://')) return new URL(client.id).host;
  return 'An application that gave no name';
}

/**
 * The consent page (MCP 2025-11-25 §Security: name the client and show where the answer goes). The name is the
 * client's own claim, so the redirect host, which the client cannot fake, is shown beside it.
 */
export function consentPage(res: Response, input: { request: AuthorizationRequest; me: SignedIn; csrf: string }): void {
  const { request, me, csrf } = input;
  const name = escapeHtml(clientLabel(request.client));
  const host = escapeHtml(redirectHostOf(request.redirectUri));
  const scopes = request.scopes.map((scope) => `<li>${escapeHtml(SCOPES[scope])}</li>`).join('');
  const identity =
    request.client.kind === 'metadata_document'
      ? `<p class="muted">The application is identified by <code>${escapeHtml(request.client.id)}</code>.</p>`
      : `<p class="muted">The name is what the application calls itself; shortlinks has not checked it.</p>`;
  const hidden = Object.entries(request.params)
    .filter(([, value]) => value !== undefined)
    .map(([field, value]) => `<input type="hidden" name="${escapeHtml(field)}" value="${escapeHtml(value!)}">`)
    .join('');
  sendPage(
    res,
    200,
    'Allow an assistant',
    `<h1>Allow ${name} to use shortlinks as you?</h1>
<div class="card">
<p><strong>${name}</strong> asks to act as <strong>${escapeHtml(me.person.email)}</strong>. It will be able to:</p>
<ul>${scopes}</ul>
<p>It cannot make tokens, change your teams or delete your account. You can disconnect it any time on the
<a href="/assistants">Connected assistants</a> page.</p>
<p>After you answer, you go back to <strong>${host}</strong>. Approve only if you just asked to connect from there.</p>
${identity}
<form method="post" action="/authorize">
<input type="hidden" name="_csrf" value="${escapeHtml(csrf)}">${hidden}
<button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="deny" class="quiet">Deny</button>
</form>
</div>`,
  );
}
