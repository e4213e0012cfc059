/**
 * A link with forwardQuery passes the visitor's query string on: `/<code>?utm_source=mail` to
 * `https://shop.example/?id=7` goes to `https://shop.example/?id=7&utm_source=mail`. The destination's own
 * parameters win a clash (a visitor cannot override what the link's owner set), and the QR marker (`qr`,
 * domain/qr-address.ts) is ours, never passed on. The destination's text is kept as it is; only the visitor's
 * parameters are appended, re-encoded, before its fragment.
 *
 * @param location the destination as the redirect sends it (an ASCII URL)
 * @param query the visit's query, without its `?`
 */
export function forwardedLocation(location: string, query: string): string {
  if (query === '' || query === 'qr') return location;
  const hash = location.indexOf('#');
  const beforeHash = hash === -1 ? location : location.slice(0, hash);
  const queryAt = beforeHash.indexOf('?');
  const own = queryAt === -1 ? null : new URLSearchParams(beforeHash.slice(queryAt + 1));
  const passed = new URLSearchParams();
  for (const [name, value] of new URLSearchParams(query)) {
    if (name !== 'qr' && !own?.has(name)) passed.append(name, value);
  }
  const added = passed.toString();
  if (added === '') return location;
  const joiner = queryAt === -1 ? '?' : beforeHash.endsWith('?') || beforeHash.endsWith('&') ? '' : '&';
  return `${beforeHash}${joiner}${added}${hash === -1 ? '' : location.slice(hash)}`;
}
