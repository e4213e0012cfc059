import type { Express, Request, Response } from 'express';
import type { SignedIn } from '../../auth/web-sessions.js';
import { blockDomain, blockEntryText, listBlocked, unblockDomain, type BlockEntry } from '../../operator/blocklist.js';
import type { Store } from '../../store/ports.js';
import { alertBox, buttonForm, csrfField, noticeBox, textField } from '../../views/forms.js';
import { html } from '../../views/html.js';
import { operatorOnly, refusal, renderOperatorPage, sentence } from '../operator-pages.js';
import { queryText, text, type PageDeps } from '../request.js';

type Change = (store: Store, domain: string, now: Date) => Promise<BlockEntry>;

/**
 * The blocklist, `/admin/blocklist`: the blocked domains, a form to add one and a button to remove each, run by
 * the operator layer as the CLI's `block add|remove|list` are. New destinations on a blocked domain or its
 * subdomains answer `blocked_destination`, on every process from the next request.
 */
export function adminBlocklistPages(app: Express, deps: PageDeps): void {
  const { store, clock } = deps.ctx;

  async function show(req: Request, res: Response, me: SignedIn, status = 200, typed = '', fault?: string, alert?: string) {
    const { blocked } = await listBlocked(store);
    const done = queryText(req, 'done');
    const notice = status === 200 && done ? doneText(done, queryText(req, 'domain'), blocked) : undefined;
    const items = blocked.map(
      (domain) =>
        html`<li style="overflow-wrap:anywhere;margin:.35rem 0"><code>${domain}</code> ${buttonForm({ action: '/admin/blocklist/remove', csrf: me.csrf, label: 'Remove', className: 'danger', hidden: { domain }, ariaLabel: `Remove ${domain}` })}</li>`,
    );
    renderOperatorPage(
      res,
      status,
      'Blocklist',
      '/admin/blocklist',
      html`<h1>Blocklist</h1>${noticeBox(notice)}${alertBox(alert)}
<p>New and changed destinations on a blocked domain or any of its subdomains are refused (<code>blocked_destination</code>).
Links made before stay as they are: disable them on the <a href="/admin/links">Links</a> page.</p>
<form method="post" action="/admin/blocklist" class="card" novalidate>${csrfField(me.csrf)}
${textField({ name: 'domain', label: 'Domain to block', value: typed, error: fault, required: true, hint: 'Like example.com; its subdomains are blocked too.' })}
<button type="submit">Block the domain</button>
</form>
<h2>Blocked domains (${blocked.length})</h2>
${blocked.length ? html`<ul style="list-style:none;padding:0">${items}</ul>` : html`<p class="muted">No blocked domains.</p>`}`,
    );
  }

  /** Blocks or unblocks the form's domain; a domain that is refused is shown where it was typed. */
  async function change(req: Request, res: Response, me: SignedIn, run: Change, fromField: boolean) {
    const typed = text(req, 'domain');
    try {
      const entry = await run(store, typed, clock.now());
      const done = entry.blocked ? (entry.changed ? 'blocked' : 'already') : entry.changed ? 'unblocked' : 'absent';
      res.redirect(303, `/admin/blocklist?done=${done}&domain=${encodeURIComponent(entry.domain)}`);
    } catch (error) {
      const message = sentence(refusal(error, 'bad_request').message);
      return fromField ? show(req, res, me, 400, typed, message) : show(req, res, me, 400, '', undefined, message);
    }
  }

  app.get('/admin/blocklist', operatorOnly(deps, (req, res, me) => show(req, res, me)));
  app.post('/admin/blocklist', operatorOnly(deps, (req, res, me) => change(req, res, me, blockDomain, true)));
  app.post('/admin/blocklist/remove', operatorOnly(deps, (req, res, me) => change(req, res, me, unblockDomain, false)));
}

/**
 * The notice after a change, in the CLI's words (`example.com blocked`), only when the list bears it out: an address
 * typed by hand cannot claim a change.
 */
function doneText(done: string, domain: string, blocked: readonly string[]): string | undefined {
  const entries: Record<string, Omit<BlockEntry, 'domain'>> = {
    blocked: { blocked: true, changed: true },
    already: { blocked: true, changed: false },
    unblocked: { blocked: false, changed: true },
    absent: { blocked: false, changed: false },
  };
  const entry = entries[done];
  return entry && domain && entry.blocked === blocked.includes(domain) ? `${blockEntryText({ domain, ...entry })}.` : undefined;
}
