import type { LinkState } from '../../domain/link-state.js';
import { eventBody, newEventId, type WebhookEventType } from '../../domain/webhooks.js';
import type { LinkOptions, LinkRecord } from '../ports.js';
import { q, type LinkQueries } from './link-queries.js';
import type { Steps } from './steps.js';

/** What a link event says beside the link: which fields changed (link.changed), the state before (link.state_changed). */
export type LinkEventDetail = { changed: string[] } | { previousState: LinkState } | Record<string, never>;

/**
 * Tells the team's webhook endpoints of a change to a link, in the change's own transaction: the event is in the
 * outbox if and only if the change committed, so a crash loses none and invents none. The body is fixed now, as
 * Standard Webhooks has it (`type`, `timestamp`, `data`); the link in it has every public field but its addresses,
 * which the sender adds (they depend on the team's domain of the moment), and never its password's hash.
 */
export function* tellWebhooks(type: WebhookEventType, link: LinkRecord, now: Date, detail: LinkEventDetail = {}): Steps<LinkQueries, void> {
  const { seq: _seq, passwordHash, ...fields } = link;
  const data = { link: { ...fields, hasPassword: passwordHash !== null }, ...detail };
  // Not from the operations' Random: event ids need no test's script, and drawing them would shift its codes.
  yield* q.tellWebhooks({ eventId: newEventId(), teamId: link.teamId, type, payload: eventBody(type, now, data), at: now });
}

/** The options a change of them changed, by the names a link shows them under (the password as `password`). */
export function changedOptions(before: LinkRecord, after: LinkOptions): string[] {
  const changed: string[] = [];
  if (after.expiresAt !== before.expiresAt) changed.push('expiresAt');
  if (after.maxClicks !== before.maxClicks) changed.push('maxClicks');
  if (after.passwordHash !== before.passwordHash) changed.push('password');
  if (after.tags.join(' ') !== before.tags.join(' ')) changed.push('tags');
  if (after.forwardQuery !== before.forwardQuery) changed.push('forwardQuery');
  return changed;
}
