import { describe, expect, it } from 'vitest';
import { linkAddressesText } from '../../src/mcp/link-addresses.js';
import type { Link } from '../../src/tools/schemas.js';

/**
 * The second text item of results that return links (docs/behaviour.md "Assistants (MCP)"): the addresses, then a
 * line for each option a link has, and nothing more for a link without options.
 */
const PUBLIC_URL = 'https://sho.rt';

function link(changes: Partial<Link> = {}): Link {
  return {
    id: 'link_1',
    code: 'abc1234',
    name: 'launch',
    destination: 'https://example.com/launch',
    note: null,
    state: 'active',
    createdAt: '2026-11-21T10:00:00.000Z',
    changedAt: null,
    shortUrl: `${PUBLIC_URL}/abc1234`,
    nameUrl: `${PUBLIC_URL}/launch`,
    expiresAt: null,
    maxClicks: null,
    hasPassword: false,
    tags: [],
    forwardQuery: true,
    ...changes,
  };
}

const ADDRESSES = `Short link: ${PUBLIC_URL}/abc1234\nBy name: ${PUBLIC_URL}/launch\nQR code: ${PUBLIC_URL}/abc1234/qr\nLeads to: https://example.com/launch`;

describe('linkAddressesText', () => {
  it('names the addresses of a link without options, and nothing else', () => {
    expect(linkAddressesText(link(), PUBLIC_URL)).toBe(ADDRESSES);
    expect(linkAddressesText(link({ name: null, nameUrl: null }), PUBLIC_URL)).toBe(
      `Short link: ${PUBLIC_URL}/abc1234\nQR code: ${PUBLIC_URL}/abc1234/qr\nLeads to: https://example.com/launch`,
    );
  });

  it('adds a line for each option the link has, before its state', () => {
    const options = link({
      expiresAt: '2027-01-31T18:00:00.000Z',
      maxClicks: 500,
      hasPassword: true,
      tags: ['fair', 'print'],
      forwardQuery: false,
      state: 'flagged',
    });
    expect(linkAddressesText(options, PUBLIC_URL)).toBe(
      `${ADDRESSES}\n` +
        'Ends: 2027-01-31T18:00:00.000Z\n' +
        'Click cap: 500\n' +
        'Password: required\n' +
        'Tags: fair, print\n' +
        'Query string: not passed on\n' +
        'State: flagged (visitors see a warning page before the destination)',
    );
  });

  it('adds only the options that are set', () => {
    expect(linkAddressesText(link({ maxClicks: 1 }), PUBLIC_URL)).toBe(`${ADDRESSES}\nClick cap: 1`);
    expect(linkAddressesText(link({ tags: ['solo'] }), PUBLIC_URL)).toBe(`${ADDRESSES}\nTags: solo`);
    expect(linkAddressesText(link({ hasPassword: true }), PUBLIC_URL)).toBe(`${ADDRESSES}\nPassword: required`);
    // A link made before options existed keeps the query string to itself.
    expect(linkAddressesText(link({ forwardQuery: false }), PUBLIC_URL)).toBe(`${ADDRESSES}\nQuery string: not passed on`);
  });

  it('names every link of a page in order, each with its own options, and nothing for a result without links', () => {
    const page = { data: [link({ expiresAt: '2027-01-31T18:00:00.000Z' }), link({ code: 'xyz9876', shortUrl: `${PUBLIC_URL}/xyz9876`, name: null, nameUrl: null })], next: null };
    expect(linkAddressesText(page, PUBLIC_URL)).toBe(
      `${ADDRESSES}\nEnds: 2027-01-31T18:00:00.000Z\n\n` +
        `Short link: ${PUBLIC_URL}/xyz9876\nQR code: ${PUBLIC_URL}/xyz9876/qr\nLeads to: https://example.com/launch`,
    );
    expect(linkAddressesText({ data: [], next: null }, PUBLIC_URL)).toBeNull();
    expect(linkAddressesText({ last7: 1, last30: 2 }, PUBLIC_URL)).toBeNull();
  });
});
