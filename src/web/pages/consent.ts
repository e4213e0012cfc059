import type { Response } from 'express';
import { neutralized } from '../../domain/hidden-characters.js';
import type { OAuthClient } from '../../store/ports.js';
import { escapeHtml, page, PAGE_HEADERS } from '../../views/layout.js';
import type { SignedIn } from '../../auth/web-sessions.js';
import { header } from '../request.js';
import type { AuthorizationRequest } from '../../oauth/authorize.js';
import type { OAuthPages } from '../../oauth/pages.js';
import { isMetadataDocumentId } from '../../oauth/metadata-documents.js';
import { redirectHostOf } from '../../oauth/redirect-uris.js';
import { SCOPES } from '../../auth/scopes.js';

/**
 * The CSP source of where the consent form's answer ends up. The form posts to our /authorize, which answers
 * 303 to the client's redirect URI, and browsers (Chromium) hold that redirect to `form-action` too, so the
 * consent page allows that one origin (or private-use scheme) besides 'self'. Null when it cannot be written
 * safely as a source expression.
 */
export function formActionSource(redirectUri: string): string | null {
  let url: URL;
  try {
    url = new URL(redirectUri);
  } catch {
    return null;
  }
  if (url.protocol === 'https:' || url.protocol === 'http:') return /^https?:\/\/[A-Za-z0-9.\-]+(:\d+)?$|^https?:\/\/\[[0-9a-fA-F:.]+\](:\d+)?$/.test(url.origin) ? url.origin : null;
  return /^[a-z][a-z0-9+.-]*:$/.test(url.protocol) ? url.protocol : null;
}

function sendPage(res: Response, status: number, title: string, body: string, headers: Record<string, string> = {}): void {
  res
    .status(status)
    .set({ ...PAGE_HEADERS, ...headers })
    .type('html')
    .send(page(title, body, header(res, null).text));
}

/** A page with a heading and one sentence (errors of the OAuth pages). */
export function oauthPage(res: Response, status: number, title: string, message: string): void {
  sendPage(res, status, title, `<h1>${escapeHtml(title)}</h1>\n<p class="alert" role="alert">${escapeHtml(message)}</p>`);
}

/**
 * An authorization request with an error, from a client the person has not approved: shown here rather than
 * redirected (RFC 9700 §4.11.1), with a plain link the person may follow back to the client with the error.
 */
export function refusedRequestPage(res: Response, input: { message: string; error: string; returnTo: string }): void {
  const host = redirectHostOf(input.returnTo);
  sendPage(
    res,
    400,
    'This sign-in link does not work',
    `<h1>This sign-in link does not work</h1>
<p class="alert" role="alert">The application sent a request shortlinks cannot answer (${escapeHtml(input.error)}): ${escapeHtml(input.message)}</p>
<p>Nothing was shared. <a href="${escapeHtml(input.returnTo)}" rel="noreferrer">Return to ${escapeHtml(host)}</a></p>`,
  );
}

/**
 * What the consent page and the assistants page call a client. A metadata document client is named by the host
 * of its client_id (the document was fetched from there, so that much is checked); a registered one by the name
 * it gave itself (unchecked, and said so).
 */
export function clientLabel(client: Pick<OAuthClient, 'id' | 'name'>): string {
  if (isMetadataDocumentId(client.id)) return new URL(client.id).host;
  // Names with hidden characters are refused when given; one stored before that rule is shown defused.
  if (client.name) return neutralized(client.name);
  return 'An application that gave no name';
}

/** The unchecked name a metadata document gives its client, as a clause ("calls itself …"), or ''. */
export function selfChosenName(client: Pick<OAuthClient, 'id' | 'name'>): string {
  return isMetadataDocumentId(client.id) && client.name ? `calls itself “${neutralized(client.name)}”` : '';
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
  const claim = selfChosenName(request.client);
  const identity =
    request.client.kind === 'metadata_document'
      ? `<p class="muted">The application is identified by <code>${escapeHtml(request.client.id)}</code>.${
          claim ? ` It ${escapeHtml(claim)}; that name is unverified: shortlinks has not checked it.` : ''
        }</p>`
      : `<p class="muted">The name is what the application calls itself; it is unverified: shortlinks has not checked it.</p>`;
  const hidden = Object.entries(request.params)
    .filter(([, value]) => value !== undefined)
    .map(([field, value]) => `<input type="hidden" name="${escapeHtml(field)}" value="${escapeHtml(value!)}">`)
    .join('');
  const target = formActionSource(request.redirectUri);
  const base = PAGE_HEADERS['Content-Security-Policy']!;
  const csp = target === null ? base : base.replace("form-action 'self'", `form-action 'self' ${target}`);
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
    { 'Content-Security-Policy': csp },
  );
}

/** The authorization server's pages, as the composition root hands them to it. */
export const oauthPages: OAuthPages = { consent: consentPage, message: oauthPage, refused: refusedRequestPage };
