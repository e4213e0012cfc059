/**
 * Webhooks' rules (domain/webhooks.ts) and the body a delivery sends (webhooks/body.ts): the retry schedule, when
 * an endpoint is paused, which events an endpoint may ask for, and the links' addresses added as it goes out.
 */
import { describe, expect, it } from 'vitest';
import { checkWebhookEvents, pausesNow, retryAt } from '../../src/domain/webhooks.js';
import { deliveryBody } from '../../src/webhooks/body.js';

const T0 = new Date('2026-11-28T12:00:00.000Z');
const after = (ms: number) => new Date(T0.getTime() + ms).toISOString();

describe('the retry schedule', () => {
  it("waits 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h after the 1st to 7th failed attempts, then gives up", () => {
    const waits = [1, 2, 3, 4, 5, 6, 7, 8].map((attempt) => retryAt(attempt, T0)?.toISOString() ?? null);
    expect(waits).toEqual([after(5_000), after(300_000), after(1_800_000), after(7_200_000), after(18_000_000), after(36_000_000), after(36_000_000), null]);
  });
});

describe('pausing an endpoint', () => {
  it('pauses one failing for a day or more, never one whose last delivery went well', () => {
    expect(pausesNow(null, T0)).toBe(false);
    expect(pausesNow(new Date(T0.getTime() - 86_399_999).toISOString(), T0)).toBe(false);
    expect(pausesNow(new Date(T0.getTime() - 86_400_000).toISOString(), T0)).toBe(true);
  });
});

describe('the events an endpoint asks for', () => {
  it("keeps each once, in the list's order, and refuses an unknown one or none with bad_request on `events`", () => {
    expect(checkWebhookEvents([' link.deleted', 'link.created', 'link.deleted', ''])).toEqual(['link.created', 'link.deleted']);
    expect(() => checkWebhookEvents(['link.created', 'webhook.test'])).toThrow(expect.objectContaining({ code: 'bad_request', field: 'events', detail: expect.stringMatching(/^Unknown event "webhook.test"/) }));
    expect(() => checkWebhookEvents([' '])).toThrow(expect.objectContaining({ code: 'bad_request', field: 'events' }));
  });
});

describe("a delivery's body", () => {
  it("adds the link's short addresses at its team's address of the moment, and leaves other events as written", () => {
    const payload = JSON.stringify({ type: 'link.created', timestamp: T0.toISOString(), data: { link: { teamId: 'team_a', code: 'Ab3dE9x', name: 'spring' } } });
    expect(JSON.parse(deliveryBody(payload, (team) => (team === 'team_a' ? 'https://go.example.com' : 'https://lnk.example.net')))).toEqual({
      type: 'link.created',
      timestamp: T0.toISOString(),
      data: { link: { teamId: 'team_a', code: 'Ab3dE9x', name: 'spring', shortUrl: 'https://go.example.com/Ab3dE9x', nameUrl: 'https://go.example.com/spring' } },
    });
    const test = JSON.stringify({ type: 'webhook.test', timestamp: T0.toISOString(), data: { teamId: 'team_a' } });
    expect(deliveryBody(test, () => 'https://lnk.example.net')).toBe(test);
  });
});
