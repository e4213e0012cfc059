import { UTM_FIELDS, type UtmValues } from '../views/link-options-fields.js';

/** A query parameter's name as a server reads it (`+` a space, percent-escapes decoded), or as written when malformed. */
function nameOf(pair: string): string {
  const name = pair.split('=', 1)[0]!.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

/**
 * The destination with the UTM builder's filled fields (trimmed; an empty one adds nothing) added to its query,
 * before its fragment: a parameter of the same name already there is replaced, every other one is kept exactly as
 * written, and the values are percent-encoded. A destination that is no address at all is answered as it is, for
 * the destination's own rules to refuse in their own words.
 */
export function withUtm(destination: string, utm: Partial<UtmValues>): string {
  const added = UTM_FIELDS.map((field) => [field, (utm[field] ?? '').trim()] as const).filter(([, value]) => value !== '');
  if (added.length === 0 || !URL.canParse(destination)) return destination;
  const hashAt = destination.indexOf('#');
  const fragment = hashAt < 0 ? '' : destination.slice(hashAt);
  const beforeFragment = hashAt < 0 ? destination : destination.slice(0, hashAt);
  const queryAt = beforeFragment.indexOf('?');
  const base = queryAt < 0 ? beforeFragment : beforeFragment.slice(0, queryAt);
  const query = queryAt < 0 ? '' : beforeFragment.slice(queryAt + 1);
  const names = new Set<string>(added.map(([field]) => field));
  const kept = query.split('&').filter((pair) => pair !== '' && !names.has(nameOf(pair)));
  const pairs = added.map(([field, value]) => `${field}=${encodeURIComponent(value)}`);
  return `${base}?${[...kept, ...pairs].join('&')}${fragment}`;
}
