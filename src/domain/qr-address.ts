/**
 * The address a link's QR code holds: its short address with the marker `?qr`, so the redirect can count a scan as
 * the `qr` source (the marker never reaches the destination). Codes printed before the marker existed hold the bare
 * address: they still lead to the link, and count as `link` visits.
 */
export function qrAddress(base: string, code: string): string {
  return markedForQr(`${base}/${code}`);
}

/** A link's short address by code (PUBLIC_URL's, or its team's domain's) as its QR code holds it. */
export function markedForQr(shortUrl: string): string {
  return `${shortUrl}?qr`;
}

/**
 * True when a visit's query (what follows `?`, without it) carries the QR marker: exactly `qr` (as the codes
 * hold it), or a `qr` parameter among others (a scanner app or a campaign tool that added its own).
 */
export function carriesQrMarker(query: string): boolean {
  if (query === 'qr') return true;
  for (const part of query.split('&')) if (part === 'qr' || part.startsWith('qr=')) return true;
  return false;
}
