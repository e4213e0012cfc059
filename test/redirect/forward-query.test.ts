import { describe, expect, it } from 'vitest';
import { forwardedLocation } from '../../src/redirect/forward-query.js';

describe('forwardedLocation', () => {
  it.each([
    ['no query: the destination as it is', 'https://shop.example/a', '', 'https://shop.example/a'],
    ['appended after a ?', 'https://shop.example/a', 'utm_source=mail&x=1', 'https://shop.example/a?utm_source=mail&x=1'],
    ['appended after the destination’s own', 'https://shop.example/?id=7', 'utm_source=mail', 'https://shop.example/?id=7&utm_source=mail'],
    ['the destination’s own parameter wins a clash', 'https://shop.example/?id=7', 'id=8&ref=a', 'https://shop.example/?id=7&ref=a'],
    ['before the fragment', 'https://shop.example/p?id=7#top', 'ref=a', 'https://shop.example/p?id=7&ref=a#top'],
    ['a fragment without a query', 'https://shop.example/p#top', 'ref=a', 'https://shop.example/p?ref=a#top'],
    ['the QR marker alone is ours', 'https://shop.example/', 'qr', 'https://shop.example/'],
    ['the QR marker among others is left out', 'https://shop.example/', 'qr&ref=a&qr=1', 'https://shop.example/?ref=a'],
    ['re-encoded: spaces, quotes and non-ASCII', 'https://shop.example/', 'q=a b&n=%C3%A9"', 'https://shop.example/?q=a+b&n=%C3%A9%22'],
    ['a name without a value', 'https://shop.example/', 'flag', 'https://shop.example/?flag='],
    ['after a destination ending in ?', 'https://shop.example/?', 'ref=a', 'https://shop.example/?ref=a'],
    ['after a destination ending in &', 'https://shop.example/?id=7&', 'ref=a', 'https://shop.example/?id=7&ref=a'],
    ['the destination’s text is kept as it is', 'https://shop.example/?q=a%20b', 'ref=a', 'https://shop.example/?q=a%20b&ref=a'],
  ])('%s', (_what, location, query, expected) => {
    expect(forwardedLocation(location, query)).toBe(expected);
  });
});
