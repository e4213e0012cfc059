import { systemClock } from '../shared/clock.js';
import type { WebhookEndpoint } from '../store/ports.js';
import { standaloneToolContext } from '../tools/tool-context.js';
import { addWebhook, removeWebhook, resumeWebhook, sendTestEvent } from '../webhooks/manage.js';
import { optional, required } from './args.js';
import { defineCommand } from './command.js';

/** An endpoint as the CLI shows it after it was added: never its secret again after that. */
function withoutSecret({ secret: _secret, ...endpoint }: WebhookEndpoint) {
  return endpoint;
}

/** One line an endpoint: its id, team, address, events and state (why, when paused); never its secret. */
function line(endpoint: Omit<WebhookEndpoint, 'secret'>): string {
  const state = endpoint.state === 'paused' ? `paused: ${endpoint.pausedReason}` : 'active';
  return `${endpoint.id} ${endpoint.teamId} ${endpoint.url} ${endpoint.events.join(',')} ${state}`;
}

/**
 * `webhook add --team T --url U --events E1,E2`: the address checked as a destination is, through the resolver and
 * the unsafe-site lists the configuration names, as the server checks; the secret printed this once.
 */
export const webhookAdd = defineCommand(
  async (args, store, context) => {
    const input = { teamId: required(args, 'team'), url: required(args, 'url'), events: required(args, 'events').split(',') };
    const ctx = await standaloneToolContext(context.config, store);
    return addWebhook({ store, destinations: ctx.destinations, random: ctx.domains.random, clock: ctx.clock }, input, 'operator');
  },
  (endpoint) => `added ${line(endpoint)}\nsecret ${endpoint.secret} (shown once; keep it now: receivers verify each delivery with it)`,
);

/** `webhook list [--team T]`: every team's endpoints, or one team's, without their secrets. */
export const webhookList = defineCommand(
  async (args, store) => {
    const team = optional(args, 'team');
    const endpoints = team === undefined ? await store.webhooks.all() : await store.webhooks.ofTeam(team);
    return { webhooks: endpoints.map(withoutSecret) };
  },
  ({ webhooks }) => (webhooks.length === 0 ? 'no webhooks' : webhooks.map(line).join('\n')),
);

/** `webhook remove --id W`: nothing more is sent to it; its deliveries go with it. */
export const webhookRemove = defineCommand(
  async (args, store) => withoutSecret(await removeWebhook({ store }, required(args, 'id'), 'operator')),
  (endpoint) => `removed ${endpoint.id} from ${endpoint.teamId}`,
);

/** `webhook resume --id W`: a paused endpoint gets events again, its waiting deliveries first. */
export const webhookResume = defineCommand(
  async (args, store) => withoutSecret(await resumeWebhook({ store }, required(args, 'id'), 'operator')),
  (endpoint) => `resumed ${endpoint.id}`,
);

/** `webhook test --id W`: a webhook.test event, sent by the next server round. */
export const webhookTest = defineCommand(
  async (args, store) => ({ eventId: await sendTestEvent({ store, clock: systemClock }, required(args, 'id'), 'operator') }),
  ({ eventId }) => `queued ${eventId}`,
);
