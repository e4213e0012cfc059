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

/** What a visit to an active link is: a click (a person's browser), or one of the classes not counted as clicks. */
export type VisitClass = 'counted' | UncountedClass;

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

/** A breakdown's row as counted: a value, its words, its clicks, and its visitors where they are known. */
export interface CountedRow {
  value: string;
  label: string;
  clicks: number;
  visitors?: number;
}

/**
 * At most `max` rows: past them, or with clicks counted beyond the rows (`restClicks`: what a ranking left out),
 * the first `max - 1` and one `other` row summing the rest. Its visitors only when every row it sums has them and
 * nothing lies beyond: a sum of some visitors is no count of the rest's.
 */
export function foldOther<Row extends CountedRow>(rows: readonly Row[], max: number, restClicks = 0): Array<Row | CountedRow> {
  if (rows.length <= max && restClicks === 0) return [...rows];
  const rest = rows.slice(max - 1);
  const clicks = rest.reduce((sum, row) => sum + row.clicks, restClicks);
  const known = restClicks === 0 && rest.every((row) => row.visitors !== undefined);
  const other: CountedRow = { value: OTHER, label: 'Other', clicks };
  if (known) other.visitors = rest.reduce((sum, row) => sum + row.visitors!, 0);
  return [...rows.slice(0, max - 1), other];
}
