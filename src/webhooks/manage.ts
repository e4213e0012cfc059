import type { DestinationChecker } from '../destinations/checker.js';
import { newId } from '../domain/ids.js';
import type { Random } from '../domain/random.js';
import { refusalToManage, type TeamActor } from '../domain/team-roles.js';
import { checkWebhookEvents, eventBody, MAX_TEAM_WEBHOOKS, newEventId } from '../domain/webhooks.js';
import { apiError } from '../errors.js';
import type { Clock } from '../shared/clock.js';
import type { TeamStore, WebhookEndpoint, WebhookStore } from '../store/ports.js';

/** What managing webhooks needs: the store's endpoints and teams, the destination rules, randomness, time. */
export interface WebhookDeps {
  store: { webhooks: WebhookStore; teams: Pick<TeamStore, 'members'> };
  destinations: DestinationChecker;
  random: Random;
  clock: Clock;
}

/**
 * Adds an endpoint to a team, for its owners (the team page) and the operator (`webhook add`): an address that
 * passes the destination rules (https, public, not blocked or unsafe; http and private addresses only where the
 * operator allows private destinations), and the events it wants. Answers it with its secret, which is shown this
 * once. 400 as createLink refuses a destination (on `url`) or bad_request (on `events`), 409 team_webhooks_full,
 * 404 for a team the actor cannot see, 403 for a member who is no owner.
 */
export async function addWebhook(deps: WebhookDeps, input: { teamId: string; url: string; events: readonly string[] }, by: TeamActor): Promise<WebhookEndpoint> {
  await refuseUnlessOwner(deps, input.teamId, by);
  const events = checkWebhookEvents(input.events);
  const url = (await deps.destinations.check(input.url, 'url')).url.href;
  const endpoint = {
    id: newId('whk', deps.random),
    teamId: input.teamId,
    url,
    events,
    // Standard Webhooks' form: the prefix, then the key's 32 random bytes in base64.
    secret: `whsec_${deps.random.bytes(32).toString('base64')}`,
    createdAt: deps.clock.now().toISOString(),
  };
  const added = await deps.store.webhooks.add(endpoint, MAX_TEAM_WEBHOOKS);
  if (added === 'no_team') throw apiError.notFound('No such team.', 'team');
  if (added === 'team_webhooks_full') throw apiError.teamWebhooksFull(`A team has at most ${MAX_TEAM_WEBHOOKS} webhook endpoints.`, 'url');
  return added;
}

/** The team's endpoints, for its owners and the operator. */
export async function webhooksOfTeam(deps: Pick<WebhookDeps, 'store'>, teamId: string, by: TeamActor): Promise<WebhookEndpoint[]> {
  await refuseUnlessOwner(deps, teamId, by);
  return deps.store.webhooks.ofTeam(teamId);
}

/**
 * The endpoint, when `by` manages it; within a team (`teamId`: a team's page) another team's endpoint is not found,
 * even for someone who owns both.
 */
export async function managedWebhook(deps: Pick<WebhookDeps, 'store'>, id: string, by: TeamActor, teamId?: string): Promise<WebhookEndpoint> {
  const found = await deps.store.webhooks.get(id);
  if (!found || (teamId !== undefined && found.teamId !== teamId)) throw apiError.notFound('No such webhook endpoint.', 'webhook');
  await refuseUnlessOwner(deps, found.teamId, by, () => apiError.notFound('No such webhook endpoint.', 'webhook'));
  return found;
}

/** Removes the endpoint and its deliveries: nothing more is sent to it. */
export async function removeWebhook(deps: Pick<WebhookDeps, 'store'>, id: string, by: TeamActor, teamId?: string): Promise<WebhookEndpoint> {
  const found = await managedWebhook(deps, id, by, teamId);
  await deps.store.webhooks.remove(found.id);
  return found;
}

/** A paused endpoint active again: its waiting deliveries go out at the next round, its failures forgotten. */
export async function resumeWebhook(deps: Pick<WebhookDeps, 'store'>, id: string, by: TeamActor, teamId?: string): Promise<WebhookEndpoint> {
  const found = await managedWebhook(deps, id, by, teamId);
  return (await deps.store.webhooks.resume(found.id)) ?? found;
}

/** Queues a `webhook.test` event for the endpoint alone, whatever events it asked for; answers its id. */
export async function sendTestEvent(deps: Pick<WebhookDeps, 'store' | 'clock'>, id: string, by: TeamActor, teamId?: string): Promise<string> {
  const found = await managedWebhook(deps, id, by, teamId);
  const now = deps.clock.now();
  const eventId = newEventId();
  const payload = eventBody('webhook.test', now, { teamId: found.teamId, endpointId: found.id });
  await deps.store.webhooks.enqueue({ eventId, teamId: found.teamId, type: 'webhook.test', payload, at: now }, found.id);
  return eventId;
}

async function refuseUnlessOwner(
  deps: Pick<WebhookDeps, 'store'>,
  teamId: string,
  by: TeamActor,
  notFound = () => apiError.notFound('No such team.', 'team'),
): Promise<void> {
  const refusal = refusalToManage(await deps.store.teams.members(teamId), by);
  if (refusal === 'no_team') throw notFound();
  if (refusal === 'not_owner') throw apiError.forbidden("Only the team's owners manage its webhooks.");
}
