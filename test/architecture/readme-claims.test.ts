import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * What the README says the web app shows, held to what it shows (issue 22, item 7): the list of links carries no
 * QR codes (a row each would be ten more requests a page, each counted against the QR budget); a link's own page
 * does (test/e2e/web-link-page.test.ts reads it back from the page).
 */
const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');

describe("the README's claims about the web app", () => {
  it('does not say the dashboard shows each link with its QR code', () => {
    expect(README).not.toMatch(/dashboard[^.]*shows each link with its QR code/i);
  });

  it("says where the QR code is: the link's own page", () => {
    expect(README).toContain('each link\'s page there ("Details and clicks") shows its QR code');
  });
});
