/**
 * Click analytics (issue 23): what is recorded of a visit, in words every surface shares. Nothing here identifies a
 * visitor: a country, a referring host, device, browser and OS families, how the link was reached, and for the
 * visits that are not counted, which class of fetcher made them.
 */

/** What each counted click is aggregated by, per link and UTC day (the store's facets). */
export const CLICK_FACETS = ['country', 'referrer', 'device', 'browser', 'os', 'source'] as const;
export type ClickFacet = (typeof CLICK_FACETS)[number];

/** What `clickBreakdown` breaks clicks down by: the facets, visitors per day, and (for a team) its links. */
export const BREAKDOWN_BY = [...CLICK_FACETS, 'visitor', 'link'] as const;
export type BreakdownBy = (typeof BREAKDOWN_BY)[number];

/**
 * Requests the spec does not count as clicks, by class: crawlers, link-preview fetchers (Slack, Teams, WhatsApp,
 * iMessage, Discord, LinkedIn...), AI assistants fetching a page for a person (ChatGPT-User, Claude-User...), and
 * checkers (prefetch, HEAD, uptime monitors and mail link scanners, requests with no User-Agent).
 */
export const UNCOUNTED_CLASSES = ['bot', 'preview', 'assistant', 'checker'] as const;
export type UncountedClass = (typeof UNCOUNTED_CLASSES)[number];

export const DEVICE_CLASSES = ['desktop', 'phone', 'tablet', 'other'] as const;
export type DeviceClass = (typeof DEVICE_CLASSES)[number];

/** How a counted click reached the link: a scan of its QR code (made since analytics), or any other visit. */
export const CLICK_SOURCES = ['qr', 'link'] as const;
export type ClickSource = (typeof CLICK_SOURCES)[number];

/** The value of a facet not known (no country for the address, an unparsed browser). */
export const UNKNOWN = 'unknown';
/** The referrer of a visit without a `Referer`. */
export const DIRECT = 'direct';
/** The referrer of a visit from one of the service's own pages. */
export const THIS_SERVICE = 'this service';
/** The row that sums what is left past the rows answered. */
export const OTHER = 'other';

/** One counted click's traits; each is one facet's value. */
export type ClickTraits = Record<ClickFacet, string>;

/** Days `clickBreakdown` reaches back, default and most. */
export const BREAKDOWN_DAYS = { min: 1, default: 30, max: 90 } as const;
/** Rows `clickBreakdown` answers at most; the rest are summed as `other`. */
export const BREAKDOWN_ROWS = 100;
/** Daily analytics are kept this many days by default (`limits set --analytics-days`), and never fewer than the minimum. */
export const ANALYTICS_DAYS = { default: 400, min: 30 } as const;
