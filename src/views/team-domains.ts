import { proofName, proofText } from '../domain/custom-domain.js';
import { count } from '../shared/words.js';
import type { Team, TeamDomain } from '../store/ports.js';
import { buttonForm, csrfField, textField } from './forms.js';
import { html, when, type Html } from './html.js';

/** What `?done=` says after a change to the team's domains (team-page.ts shows them with its own). */
export const DOMAIN_NOTICES: Record<string, string> = {
  domain_added: 'Domain added. Publish its TXT record, shown below, then check it.',
  domain_found: "Checked: the TXT record holds the token, so the domain is verified and serves the team's links.",
  domain_not_found: 'Checked: the TXT record was not found as it should be. What the check saw is shown with the domain.',
  domain_removed: "Domain removed. The team's links no longer answer on it.",
  primary_set: "Primary domain saved: the team's short links' addresses use it.",
  primary_cleared: "The team's short links' addresses use the service's own address again.",
  root_set: "Root address saved: the domain's root sends visitors there.",
  root_cleared: "The domain's root shows a plain page now.",
};

/**
 * What the domain section shows again after a refused form: the value typed and the message, beside the field of
 * the form that was sent (the add form, the primary chooser, or one domain's root address).
 */
export interface DomainFix {
  add?: { value: string; error: string };
  primary?: { error: string };
  root?: { domain: string; value: string; error: string };
}

export interface DomainSection {
  team: Team;
  domains: readonly TeamDomain[];
  /** Only owners get the forms; members see the same facts. */
  owner: boolean;
  csrf: string;
  /** How many domains the team may hold (the operator's `limits set --team-domains`). */
  limit: number;
  publicUrl: string;
  fix?: DomainFix | undefined;
}

/** The state as people read it; the operator's word is named, since no TXT record stands behind it. */
function stateOf(domain: TeamDomain): Html {
  if (domain.state === 'pending') return html`Pending <span class="muted">(not serving links until its TXT record is found)</span>`;
  if (domain.state === 'failed') return html`Failed <span class="muted">(not serving links)</span>`;
  const label = domain.proof === 'operator' ? 'Verified by the operator' : 'Verified';
  return html`${label} <span class="muted">(serving the team's links)</span>`;
}

/** A fact of the domain: a name and its value, in the page's two-column list that stacks on a phone. */
function fact(name: string, value: Html | string): Html {
  return html`<div><dt>${name}</dt><dd>${value}</dd></div>`;
}

/**
 * The record that proves the domain, to copy as it stands (`user-select: all` takes the whole value in one click,
 * with or without scripts). Kept in view while verified too: a record taken down stops the domain after three days.
 */
function proofRecord(domain: TeamDomain): Html {
  if (domain.proof === 'operator') return html``;
  const lead =
    domain.state === 'verified'
      ? 'Keep this TXT record published: a domain whose record is missing three days in a row stops serving links.'
      : 'To prove the team holds the domain, publish this TXT record at its DNS provider, then check it.';
  return html`<p>${lead}</p>
<dl class="facts">${fact('Type', 'TXT')}${fact('Name', html`<code style="user-select:all">${proofName(domain.domain)}</code>`)}${fact(
    'Value',
    html`<code style="user-select:all">${proofText(domain.token)}</code>`,
  )}</dl>`;
}

function primaryFact(domain: TeamDomain, host: string): Html {
  if (!domain.primary) return html``;
  const says = domain.state === 'verified' ? "Yes: the team's short links' addresses use it." : `Chosen, but while it is not verified the addresses use ${host}.`;
  return fact('Primary', says);
}

function rootFact(domain: TeamDomain): Html {
  return fact('Root', domain.rootUrl === null ? 'Shows a plain page' : html`Sends visitors to <a href="${domain.rootUrl}">${domain.rootUrl}</a>`);
}

/** An owner's controls of one domain: check it now (DNS-proven only), remove it (asked first), its root address. */
function ownerControls(s: DomainSection, domain: TeamDomain): Html {
  const base = `/teams/${s.team.id}/domains/${domain.domain}`;
  const check =
    domain.proof === 'dns'
      ? buttonForm({ action: `${base}/check`, csrf: s.csrf, label: 'Check now', className: 'quiet', ariaLabel: `Check now: ${domain.domain}` })
      : html``;
  const fix = s.fix?.root?.domain === domain.domain ? s.fix.root : undefined;
  // Removing asks first on a page of its own, as removing a member and deleting the team do.
  return html`<div class="actions" style="margin-bottom:1rem">${check}<a href="${base}/remove" aria-label="Remove ${domain.domain}…">Remove…</a></div>
<form method="post" action="${base}/root" novalidate>${csrfField(s.csrf)}
${textField({
  name: 'rootUrl',
  label: 'Root address',
  type: 'url',
  value: fix?.value ?? domain.rootUrl ?? '',
  error: fix?.error,
  hint: `Where https://${domain.domain}/ sends visitors. Leave it empty for a plain page.`,
  idPrefix: `root-${domain.domain}`,
})}
<button type="submit" class="quiet" aria-label="Save root address: ${domain.domain}">Save root address</button>
</form>`;
}

function domainItem(s: DomainSection, domain: TeamDomain, host: string): Html {
  return html`<li>
<h3>${domain.domain}</h3>
<dl class="facts">${fact('State', stateOf(domain))}${primaryFact(domain, host)}${domain.problem ? fact('Problem', domain.problem) : html``}${fact(
    'Last checked',
    when(domain.checkedAt, { never: 'not yet' }),
  )}${rootFact(domain)}</dl>
${proofRecord(domain)}
${s.owner ? ownerControls(s, domain) : html``}
</li>`;
}

/** Radios, one a verified domain and one for the service's own address: a choice of one among a few. */
function primaryForm(s: DomainSection, host: string): Html {
  const verified = s.domains.filter((d) => d.state === 'verified');
  if (verified.length === 0) return html`<p>Once a domain is verified, you can make it the primary one, which the team's short links' addresses use.</p>`;
  const chosen = verified.find((d) => d.primary)?.domain ?? '';
  const error = s.fix?.primary?.error;
  const option = (value: string, label: string, i: number) =>
    html`<div class="check-field"><label class="check" for="primary-${i}"><input type="radio" id="primary-${i}" name="domain" value="${value}"${
      value === chosen ? html` checked` : html``
    }> <span>${label}</span></label></div>`;
  const options = [option('', `${host} (the service's own address)`, 0), ...verified.map((d, i) => option(d.domain, d.domain, i + 1))];
  return html`<form method="post" action="/teams/${s.team.id}/domains/primary" class="card" novalidate>${csrfField(s.csrf)}
<fieldset class="field" aria-describedby="primary-hint${error ? ' primary-error' : ''}"><legend>Primary domain</legend>
<p class="hint" id="primary-hint">The team's short links' addresses use it. Every verified domain serves the links either way.</p>
${options}
${error ? html`<p class="error" id="primary-error">${error}</p>` : html``}</fieldset>
<button type="submit">Save primary domain</button>
</form>`;
}

function addForm(s: DomainSection): Html {
  return html`<form method="post" action="/teams/${s.team.id}/domains" class="card" novalidate>
<h3 style="margin-top:0">Add a domain</h3>${csrfField(s.csrf)}
${textField({
  name: 'domain',
  label: 'Domain',
  value: s.fix?.add?.value ?? '',
  error: s.fix?.add?.error,
  required: true,
  hint: `A domain of yours such as go.example.com, without https:// or a path. The team may hold ${count(s.limit, 'domain')}; it holds ${s.domains.length}.`,
  idPrefix: 'add',
})}
<button type="submit">Add domain</button>
</form>`;
}

/**
 * The team's own short domains: every member sees each one's state, what its last check found, its root and the
 * record that proves it; owners add, check, remove, choose the primary one and set roots (the store checks again).
 */
export function domainSection(s: DomainSection): Html {
  const host = new URL(s.publicUrl).host;
  const primary = s.domains.find((d) => d.primary && d.state === 'verified')?.domain ?? host;
  const list = s.domains.length
    ? html`<ul class="links">${s.domains.map((d) => domainItem(s, d, host))}</ul>`
    : html`<p class="muted">No domains yet: the team's links answer on ${host}.</p>`;
  return html`<section aria-labelledby="domains"><h2 id="domains">Domains</h2>
<p>A domain of the team's own serves its short links once a TXT record proves the team holds it. The links' addresses use <strong>${primary}</strong>.</p>
${list}
${s.owner ? html`${primaryForm(s, host)}${addForm(s)}` : html``}
</section>`;
}
