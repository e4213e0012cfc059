import { linkSchema, type Link } from '../tools/schemas.js';

/**
 * The second text item of a tool result: for every link the result returns, its short addresses and QR code's
 * address, which the spec's Link (a code and a name) leaves to the reader to put together. Plain functions of the
 * result, so they outlive any change of MCP SDK.
 */
export function linkAddressesText(result: unknown, publicUrl: string): string | null {
  const links = linksIn(result);
  return links.length === 0 ? null : links.map((link) => linkAddresses(link, publicUrl)).join('\n\n');
}

const STATE_LINE: Record<Link['state'], string | null> = {
  active: null,
  flagged: 'State: flagged (visitors see a warning page before the destination)',
  disabled: 'State: disabled (visitors get a page saying the link no longer works)',
};

function linkAddresses(link: Link, publicUrl: string): string {
  const lines = [
    `Short link: ${publicUrl}/${link.code}`,
    ...(link.name === null ? [] : [`By name: ${publicUrl}/${link.name}`]),
    // QR codes are drawn for the code only, so a printed one survives renames.
    `QR code: ${publicUrl}/${link.code}/qr`,
    `Leads to: ${link.destination}`,
    STATE_LINE[link.state],
  ];
  return lines.filter((line) => line !== null).join('\n');
}

/** Every Link in a result, in the order it holds them: a Link itself, a page's rows, createLinks' made items. */
export function linksIn(value: unknown): Link[] {
  if (Array.isArray(value)) return value.flatMap(linksIn);
  if (typeof value !== 'object' || value === null) return [];
  // Only an object with a Link's keys is worth the schema's full check, which is most of this function's time.
  const link = 'code' in value && 'destination' in value ? linkSchema.safeParse(value) : null;
  return link?.success ? [link.data] : Object.values(value).flatMap(linksIn);
}
