import type { IncomingMessage } from 'node:http';
import type { CountryLookup } from '../analytics/country.js';
import { referrerOf } from '../analytics/referrer.js';
import { visitTraits } from '../analytics/visit-class.js';
import type { ClickSource } from '../domain/analytics.js';
import { carriesQrMarker } from '../domain/qr-address.js';
import type { ClientAddress } from '../http/client-address.js';
import type { ClickFacts } from './analytics-tally.js';

/** What click analytics need beside the request: where countries come from, and who the client is (TRUST_PROXY). */
export interface CaptureDeps {
  countries: CountryLookup;
  clientAddress: ClientAddress;
  publicUrl: string;
}

/**
 * The analytics of a counted click, read from its request: country of the client address, referrer host, device,
 * browser and OS families, QR scan or not, and the visitor (address and User-Agent, for its mark at the flush). Every lookup that
 * repeats is cached (country per address, traits per User-Agent); nothing here waits.
 */
export function clickFacts(deps: CaptureDeps): (req: IncomingMessage) => ClickFacts {
  const referrer = referrerOf(deps.publicUrl);
  return (req) => {
    const address = deps.clientAddress(req);
    // A counted visit has a User-Agent (analytics/visit-class.ts).
    const userAgent = req.headers['user-agent']!;
    return {
      country: deps.countries(address),
      referrer: referrer(req.headers.referer),
      agent: visitTraits(req),
      source: sourceOf(req.url ?? ''),
      address,
      userAgent,
    };
  };
}

/** `qr` when the visit's address carries the QR marker (`/<code>?qr`), else `link`. */
function sourceOf(url: string): ClickSource {
  const query = url.indexOf('?');
  return query !== -1 && carriesQrMarker(url.slice(query + 1)) ? 'qr' : 'link';
}
