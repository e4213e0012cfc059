import { WEBHOOK_EVENTS, type WebhookEvent } from '../domain/webhooks.js';
import type { Team, WebhookDelivery, WebhookEndpoint } from '../store/ports.js';
import { buttonForm, checkbox, csrfField, textField, type FieldErrors } from './forms.js';
import { html, when, type Html } from './html.js';

/** What each event tells, beside its checkbox. */
const EVENT_WORDS: Record<WebhookEvent, string> = {
  'link.created': 'a link was made',
  'link.changed': 'a link’s destination, name, note or options changed',
  'link.deleted': 'a link was deleted',
  'link.state_changed': 'the service flagged, disabled or restored a link',
  'clicks.daily': 'once a day, yesterday’s clicks per link',
};

/** The add form as last sent, when it was refused. */
export interface WebhookForm {
  url: string;
  events: readonly string[];
  errors: FieldErrors;
}

/**
 * One endpoint with its latest deliveries, and the forms its owners use on it. A paused one says why (the sender's
 * reason names since when its deliveries failed) and offers "Resume".
 */
export function endpointCard(team: Team, endpoint: WebhookEndpoint, deliveries: readonly WebhookDelivery[], csrf: string): Html {
  const base = `/teams/${team.id}/webhooks/${endpoint.id}`;
  const paused = endpoint.state === 'paused'
    ? html`<p class="alert">Paused: ${endpoint.pausedReason ?? ''} Nothing is sent to it until it is resumed.</p>
${buttonForm({ action: `${base}/resume`, csrf, label: 'Resume', ariaLabel: `Resume ${endpoint.url}` })}`
    : html``;
  return html`<section class="card" aria-labelledby="${endpoint.id}-title">
<h3 id="${endpoint.id}-title" style="margin-top:0" class="wrap">${endpoint.url}</h3>
<p>Events: ${endpoint.events.join(', ')} · ${endpoint.state}</p>
${paused}
${buttonForm({ action: `${base}/test`, csrf, label: 'Send a test event', className: 'quiet', ariaLabel: `Send a test event to ${endpoint.url}` })}
<a href="${base}/remove" aria-label="Remove ${endpoint.url}…">Remove…</a>
${deliveryTable(endpoint, deliveries)}
</section>`;
}

/** The endpoint's latest deliveries, newest first: what was sent, how often it was tried and what last came back. */
function deliveryTable(endpoint: WebhookEndpoint, deliveries: readonly WebhookDelivery[]): Html {
  if (deliveries.length === 0) return html`<p class="muted">Nothing sent yet.</p>`;
  const rows = deliveries.map(
    (d) => html`<tr><td data-label="At">${when(d.createdAt)}</td><td data-label="Event">${d.type}</td><td data-label="State">${d.state}</td><td data-label="Attempts">${String(d.attempts)}</td><td data-label="Last answer" class="wrap">${lastAnswer(d)}</td></tr>`,
  );
  return html`<table class="stack"><caption>Latest deliveries to ${endpoint.url}</caption>
<thead><tr><th scope="col">At</th><th scope="col">Event</th><th scope="col">State</th><th scope="col">Attempts</th><th scope="col">Last answer</th></tr></thead>
<tbody>${rows}</tbody></table>`;
}

/** The last attempt's outcome in words: why it failed, or the status that delivered it. */
function lastAnswer(delivery: WebhookDelivery): string {
  if (delivery.lastError !== null) return delivery.lastError;
  return delivery.lastStatus === null ? '' : `answered ${delivery.lastStatus}`;
}

/** The form that adds an endpoint: its address and the events it wants. */
export function addForm(team: Team, csrf: string, form: WebhookForm): Html {
  const checks = WEBHOOK_EVENTS.map((event) =>
    checkbox({ name: 'events', value: event, id: `f-event-${event.replace('.', '-')}`, label: html`<code>${event}</code>: ${EVENT_WORDS[event]}`, checked: form.events.includes(event) }),
  );
  const eventsError = form.errors.events;
  return html`<form method="post" action="/teams/${team.id}/webhooks" class="card" novalidate>
<h2 style="margin-top:0">Add an endpoint</h2>${csrfField(csrf)}
${textField({ name: 'url', label: 'Address', type: 'url', value: form.url, error: form.errors.url, required: true, hint: 'An https address on the internet that takes a POST: each delivery is signed as Standard Webhooks has it.' })}
<fieldset${eventsError ? html` aria-describedby="f-events-error"` : html``}><legend>Events to send</legend>
${checks}
${eventsError ? html`<p class="error" id="f-events-error">${eventsError}</p>` : html``}
</fieldset>
<button type="submit">Add endpoint</button>
</form>`;
}

/**
 * The secret of the endpoint just added, shown this once (it is in no address and on no later page), with how a
 * receiver uses it: as the new token on the Developers page is shown.
 */
export function newSecret(endpoint: WebhookEndpoint): Html {
  return html`<section class="card notice" role="status" aria-labelledby="new-secret-title">
<h2 id="new-secret-title" style="margin-top:0">Endpoint added</h2>
<div class="field"><label for="new-secret">Signing secret for ${endpoint.url}</label>
<p class="hint" id="new-secret-hint">Shown this once: keep it now. Your receiver verifies each delivery's <code>webhook-signature</code> with it, for example with the <code>standardwebhooks</code> library: <code>new Webhook(secret).verify(body, headers)</code>.</p>
<input id="new-secret" class="secret" type="text" readonly value="${endpoint.secret}" autocomplete="off" spellcheck="false" aria-describedby="new-secret-hint"></div>
</section>`;
}
