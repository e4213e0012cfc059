/**
 * The operator's destinations mode (`settings set --destinations public|private`, docs/behaviour.md "Links to
 * private addresses") through the three tools that take a destination, on a real store: the mode is read from the
 * settings on every check, `private` skips the DNS look-up, and rules 4 to 6 hold in both modes.
 * test/e2e/private-destinations.test.ts proves the HTTP surfaces, the web form, the CLI and another process.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { changeDestination } from '../../src/tools/change-destination.js';
import { createLink } from '../../src/tools/create-link.js';
import { createLinks } from '../../src/tools/create-links.js';
import { problem, ToolHarness, type Actor } from '../helpers/tool-harness.js';

let h: ToolHarness;
let alice: Actor;
beforeEach(async () => {
  h = new ToolHarness();
  alice = await h.person();
  await h.store.settings.block('blocked-site.com', h.clock.now());
  h.network.privateHosts.add('alias.example.com');
  h.network.unsafeUrls.add('http://bad.corp.internal/');
});
afterEach(() => h.close());

const setMode = (destinations: 'public' | 'private') => h.store.settings.setServiceSettings({ destinations });

/** What each of the three tools answers for `destination`: the stored destination, or the failure. */
async function answers(destination: string) {
  const made = await h.call(createLink, alice, { team: alice.teamId, destination });
  const { code } = await h.link(alice, { destination: 'https://example.com/' });
  const changed = await h.call(changeDestination, alice, { code, destination });
  const batch = await h.call(createLinks, alice, { team: alice.teamId, links: [{ destination }] });
  const item = (batch as { results: Array<{ status: number; code: string | null; link: { destination: string } | null }> }).results[0]!;
  const of = (answer: unknown) => ('destination' in (answer as object) ? (answer as { destination: string }).destination : answer);
  return [of(made), of(changed), item.status === 200 ? item.link!.destination : [item.status, item.code]];
}

const refusedBy = (code: Parameters<typeof problem>[1], field = 'destination') => [
  problem(400, code, field),
  problem(400, code, field),
  [400, code],
];

describe('the destinations mode', () => {
  it.each([
    ['http://wiki/', 'invalid_destination'],
    ['https://wiki/page', 'private_destination'],
    ['http://git.corp.internal:8080/x', 'invalid_destination'],
    ['https://printer.local/', 'private_destination'],
    ['https://10.1.2.3/', 'private_destination'],
    ['http://[::1]:3000/', 'invalid_destination'],
    // Public by its name, private by its address: only the DNS look-up sees it, and the private mode skips it.
    ['https://alias.example.com/', 'private_destination'],
  ] as const)('%s: refused (%s) in public mode, taken by every tool in private mode', async (destination, code) => {
    expect(await answers(destination)).toEqual(refusedBy(code));
    await setMode('private');
    const stored = new URL(destination).href;
    expect(await answers(destination)).toEqual([stored, stored, stored]);
  });

  it.each([
    ['ftp://wiki/', 'invalid_destination'],
    ['http://admin:secret@wiki/', 'invalid_destination'],
    ['http://bit.ly/x', 'shortener_destination'],
    ['http://lnk.example.net/abcdefg', 'shortener_destination'],
    ['http://blocked-site.com/', 'blocked_destination'],
    ['http://bad.corp.internal/', 'unsafe_destination'],
  ] as const)('%s: refused in private mode as well (%s)', async (destination, code) => {
    await setMode('private');
    expect(await answers(destination)).toEqual(refusedBy(code));
  });

  it('asks DNS in public mode only, and the unsafe-site lists in both', async () => {
    await h.call(createLink, alice, { team: alice.teamId, destination: 'https://example.org/a' });
    await setMode('private');
    await h.call(createLink, alice, { team: alice.teamId, destination: 'https://example.org/b' });
    expect(h.network.askedDns).toEqual(['example.org']);
    expect(h.network.askedLists).toEqual(['https://example.org/a', 'https://example.org/b']);
  });

  it('is read on every check: back to public, the same address is refused again', async () => {
    await setMode('private');
    expect(await h.call(createLink, alice, { team: alice.teamId, destination: 'http://wiki/' })).toMatchObject({ destination: 'http://wiki/' });
    await setMode('public');
    expect(await h.call(createLink, alice, { team: alice.teamId, destination: 'http://wiki/' })).toEqual(
      problem(400, 'invalid_destination', 'destination', 'The destination must be an https address.'),
    );
  });
});
