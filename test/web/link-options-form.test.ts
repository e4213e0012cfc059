import { describe, expect, it } from 'vitest';
import { expiresAtOf, maxClicksOf, optionChangesOf, optionValuesOfLink, tagsOf } from '../../src/web/link-options-form.js';
import { withUtm } from '../../src/web/utm.js';
import type { Link } from '../../src/tools/schemas.js';

/** The link options' form fields as the tools take them, and the UTM builder's destination (web/utm.ts). */
describe('withUtm', () => {
  it('adds the filled fields, trimmed and encoded, after the query and before the fragment', () => {
    expect(withUtm('https://example.com/a?b=1#top', { utm_source: ' news letter ', utm_medium: '', utm_content: 'a&b=c' })).toBe(
      'https://example.com/a?b=1&utm_source=news%20letter&utm_content=a%26b%3Dc#top',
    );
    expect(withUtm('https://example.com/', { utm_campaign: 'spring' })).toBe('https://example.com/?utm_campaign=spring');
    expect(withUtm('https://example.com/?', { utm_campaign: 'spring' })).toBe('https://example.com/?utm_campaign=spring');
  });

  it('replaces a parameter of the same name, however it is written, and keeps every other one as written', () => {
    expect(withUtm('https://example.com/?utm_source=old&x=a+b&utm%5Fsource=older&utm_medium=keep', { utm_source: 'new' })).toBe(
      'https://example.com/?x=a+b&utm_medium=keep&utm_source=new',
    );
  });

  it('leaves the destination alone when no field is filled, or when it is no address', () => {
    expect(withUtm('https://example.com/?a=%zz', { utm_term: ' ' })).toBe('https://example.com/?a=%zz');
    expect(withUtm('not an address', { utm_source: 'x' })).toBe('not an address');
  });
});

describe('the option fields', () => {
  it('reads the date picker as UTC, to the minute or the second', () => {
    expect(expiresAtOf('')).toBeNull();
    expect(expiresAtOf('2027-01-31T18:00')).toBe('2027-01-31T18:00:00Z');
    expect(expiresAtOf('2027-01-31 18:00:30.5')).toBe('2027-01-31T18:00:30.5Z');
    expect(expiresAtOf('tomorrow')).toBe('tomorrow');
  });

  it('reads the click cap, text that is no number as 0 (which the tool refuses)', () => {
    expect(maxClicksOf('')).toBeNull();
    expect(maxClicksOf('500')).toBe(500);
    expect(maxClicksOf('1.5')).toBe(1.5);
    expect(maxClicksOf('many')).toBe(0);
  });

  it('splits tags on commas and spaces, as typed', () => {
    expect(tagsOf(' a, b  C,,d ')).toEqual(['a', 'b', 'C', 'd']);
    expect(tagsOf('')).toEqual([]);
  });

  const link = {
    expiresAt: '2027-01-31T18:00:30.000Z',
    maxClicks: 5,
    hasPassword: true,
    tags: ['a', 'b'],
    forwardQuery: false,
  } as Link;

  it('shows a link as its edit form does, and sends only what changed', () => {
    const values = optionValuesOfLink(link);
    expect(values).toEqual({ expiresAt: '2027-01-31T18:00:30.000', maxClicks: '5', tags: 'a, b', forwardQuery: '', removePassword: '' });
    expect(optionChangesOf(link, values, '')).toEqual({});
    expect(optionValuesOfLink({ ...link, expiresAt: '2027-01-31T18:00:00.000Z' }).expiresAt).toBe('2027-01-31T18:00');
    expect(optionChangesOf(link, { ...values, tags: 'b a b', removePassword: 'yes' }, '')).toEqual({ password: null });
    expect(optionChangesOf(link, { ...values, removePassword: 'yes' }, 'a new password')).toEqual({ password: 'a new password' });
    expect(optionChangesOf(link, { expiresAt: '', maxClicks: '', tags: '', forwardQuery: 'yes', removePassword: '' }, '')).toEqual({
      expiresAt: null,
      maxClicks: null,
      tags: [],
      forwardQuery: true,
    });
  });
});
