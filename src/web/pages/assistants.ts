import type { Express, Request, Response } from 'express';
import type { Gate } from '../../auth/gate.js';
import type { OAuthGrant, OAuthStore } from '../../store/ports.js';
import { escapeHtml, page, PAGE_HEADERS } from '../../views/layout.js';
import type { SignedIn, WebSessions } from '../../auth/web-sessions.js';
import { header } from '../request.js';
import { clientLabel, selfChosenName } from './consent.js';
import { redirectHostOf } from '../../oauth/redirect-uris.js';

/** A metadata document client's self-chosen name, beside its host, marked unverified. */
function claimOf(grant: { clientId: string; clientName: string | null }): string {
  const claim = selfChosenName({ id: grant.clientId, name: grant.clientName });
  return claim ? `<br><span class="muted">${escapeHtml(claim)} (unverified)</span>` : '';
}

const when = (iso: string | null) => (iso === null ? 'never' : `${iso.slice(0, 16).replace('T', ' ')} UTC`);

/**
 * `/assistants`: the assistants (OAuth clients) the signed-in person allowed, with when and where, and a link to
 * disconnect one, which asks first (confirmations.ts): its grant goes with every code, access token and refresh
 * token it gave, at once.
 */
export function assistantsPage(app: Express, deps: { store: OAuthStore; sessions: WebSessions; gate: Gate }): void {
  const { store, sessions, gate } = deps;

  async function signedIn(req: Request, res: Response): Promise<SignedIn | null> {
    // The page has Disconnect buttons: never framed (clickjacking), cached or sniffed, like the web app's pages.
    res.set(PAGE_HEADERS);
    const me = await sessions.signedIn(req, res);
    if (!me) res.redirect(303, `/signin?next=${encodeURIComponent('/assistants')}`);
    else await gate.count(res, me.person.id);
    return me;
  }

  app.get('/assistants', async (req, res) => {
    const me = await signedIn(req, res);
    if (!me) return;
    const grants = await store.grants(me.person.id);
    const labels = grants.map((grant) => clientLabel({ id: grant.clientId, name: grant.clientName }));
    // One assistant connected twice (say from two computers, each registering itself) has two rows of one name:
    // their buttons say which connection each ends, by when it was first made.
    const named = (label: string, grant: OAuthGrant) =>
      labels.indexOf(label) === labels.lastIndexOf(label) ? label : `${label}, first connected ${when(grant.createdAt)}`;
    const rows = grants
      .map(
        (grant, i) => `<tr><td data-label="Assistant" class="wrap">${escapeHtml(labels[i]!)}${claimOf(grant)}</td>
<td data-label="Returns to" class="wrap">${escapeHtml(grant.redirectUris.map(redirectHostOf).join(', '))}</td>
<td data-label="Scopes">${escapeHtml(grant.scopes.join(' '))}</td><td data-label="First connected">${when(grant.createdAt)}</td><td data-label="Last used">${when(grant.lastUsedAt)}</td>
<td><a href="/assistants/revoke?grant=${encodeURIComponent(grant.id)}" aria-label="Disconnect ${escapeHtml(named(labels[i]!, grant))}…">Disconnect…</a></td></tr>`,
      )
      .join('\n');
    const notice = req.query.disconnected === '1' ? '<p class="notice" role="status">Disconnected. Its tokens stopped working.</p>' : '';
    const table = grants.length
      ? `<table class="stack"><thead><tr><th scope="col">Assistant</th><th scope="col">Returns to</th><th scope="col">Scopes</th><th scope="col">First connected</th><th scope="col">Last used</th><th scope="col"><span class="muted">Actions</span></th></tr></thead>\n<tbody>${rows}</tbody></table>`
      : '<p>No assistant is connected. Point one at the MCP address on the home page and sign in from it.</p>';
    res
      .status(200)
      .type('html')
      .send(page('Connected assistants', `<h1>Connected assistants</h1>\n${notice}\n${table}`, header(res, 'assistants').text));
  });

  app.post('/assistants/revoke', async (req, res) => {
    await sessions.checkForm(req, res);
    const me = await signedIn(req, res);
    if (!me) return;
    const grant = (req.body as Record<string, unknown>).grant;
    const gone = typeof grant === 'string' && (await store.revokeGrant(me.person.id, grant));
    res.redirect(303, gone ? '/assistants?disconnected=1' : '/assistants');
  });
}
