import { csvField } from '../shared/csv.js';
import type { LinkRecord, LinkStore } from '../store/ports.js';
import { toLink, type Link } from '../tools/schemas.js';

/** The formats a team's links are exported in: CSV (a spreadsheet's) and JSON lines (a program's). */
export const EXPORT_FORMATS = ['csv', 'jsonl'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Links read from the store at a time: a team of any size is exported in the memory of one page. */
const PAGE = 500;

/** The CSV's columns: every field of the API's Link, in its order. */
const COLUMNS = ['id', 'code', 'name', 'destination', 'note', 'state', 'createdAt', 'changedAt', 'shortUrl', 'nameUrl', 'expiresAt', 'maxClicks', 'hasPassword', 'tags', 'forwardQuery'] as const satisfies ReadonlyArray<keyof Link>;

/**
 * A team's links, newest first, as the API shows them (at `base`, the team's address: its primary domain or
 * PUBLIC_URL), read a page at a time by the store's keyset, so 100,000 links are never held at once. No secret is
 * in a Link: a password is only `hasPassword`.
 */
export async function* teamLinks(store: { links: Pick<LinkStore, 'list'> }, teamId: string, base: string): AsyncGenerator<Link> {
  let after: number | null = null;
  for (;;) {
    const page: LinkRecord[] = await store.links.list(teamId, { state: null, q: null }, { limit: PAGE, after });
    for (const record of page) yield toLink(record, base);
    if (page.length < PAGE) return;
    after = page.at(-1)!.seq;
  }
}

/**
 * The links as CSV, a record at a time: the header, then one record per link; null as an empty cell, tags joined by
 * spaces (a tag holds none), booleans as true and false. Cells a spreadsheet would run as a formula start with `'`
 * (shared/csv.ts), which `import --format csv` takes off again, so an export reads back.
 */
export async function* linksCsv(links: AsyncIterable<Link>): AsyncGenerator<string> {
  yield `${COLUMNS.join(',')}\r\n`;
  for await (const link of links) {
    yield `${COLUMNS.map((column) => csvField(cellOf(link[column]))).join(',')}\r\n`;
  }
}

/** The links as JSON lines: each the API's Link, as listLinks answers it. */
export async function* linksJsonl(links: AsyncIterable<Link>): AsyncGenerator<string> {
  for await (const link of links) yield `${JSON.stringify(link)}\n`;
}

/** The export in `format`. */
export function exported(format: ExportFormat, links: AsyncIterable<Link>): AsyncGenerator<string> {
  return format === 'csv' ? linksCsv(links) : linksJsonl(links);
}

function cellOf(value: Link[keyof Link]): string | number {
  if (value === null) return '';
  if (Array.isArray(value)) return value.join(' ');
  if (typeof value === 'boolean') return String(value);
  return value;
}
