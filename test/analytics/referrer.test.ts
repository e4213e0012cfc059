import { describe, expect, it } from 'vitest';
import { referrerOf } from '../../src/analytics/referrer.js';

describe('the referrer of a click', () => {
  const referrer = referrerOf('https://Links.Example.com');

  it('is the Referer host only, lower case, without port, user or path', () => {
    expect(referrer('https://news.ycombinator.com/item?id=42')).toBe('news.ycombinator.com');
    expect(referrer('https://WWW.Google.COM/')).toBe('www.google.com');
    expect(referrer('http://intranet.example:8080/wiki/Page#top')).toBe('intranet.example');
    expect(referrer('https://user:secret@forum.example/thread')).toBe('forum.example');
    expect(referrer('https://t.co')).toBe('t.co');
    expect(referrer('https://example.org?q=1')).toBe('example.org');
    expect(referrer('http://[2001:DB8::1]:8443/page')).toBe('[2001:db8::1]');
    expect(referrer('http://192.0.2.7/')).toBe('192.0.2.7');
    expect(referrer('android-app://com.slack/')).toBe('com.slack');
  });

  it('is `direct` without a Referer, or with one that is no absolute URL', () => {
    for (const value of [undefined, '', '/relative/path', 'not a url', 'https://', 'https:///path', 'https://exa mple.com/', `https://${'a'.repeat(254)}/`])
      expect(referrer(value)).toBe('direct');
  });

  it("is `this service` for PUBLIC_URL's host, whatever the port and case", () => {
    expect(referrer('https://links.example.com/app/links/Ab3dEf9')).toBe('this service');
    expect(referrer('http://LINKS.example.com:3000/')).toBe('this service');
    expect(referrer('https://other.links.example.com/')).toBe('other.links.example.com');
  });

  it('keeps a host of 253 characters, the longest a name has', () => {
    const host = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`;
    expect(host).toHaveLength(253);
    expect(referrer(`https://${host}/`)).toBe(host);
  });
});
