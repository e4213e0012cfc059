import { linkSchema, type Link } from '../tools/schemas.js';

/**
 * The second text item of a tool result: for every link the result returns, its short addresses, its QR code's
 * address and, when it has them, its options, in lines an assistant can repeat. Plain functions of the result, so
 * they outlive any change of MCP SDK.
 */
export function linkAddressesText(result: unknown): string | null {
  const links = linksIn(result);
  return links.length === 0 ? null : links.map(linkAddresses).join('\n\n');
}

const STATE_LINE: Record<Link['state'], string | null> = {
  active: null,
  flagged: 'State: flagged (visitors see a warning page before the destination)',
  disabled: 'State: disabled (visitors get a page saying the link no longer works)',
};

function linkAddresses(link: Link): string {
  const lines = [
    `Short link: ${link.shortUrl}`,
    ...(link.nameUrl === null ? [] : [`By name: ${link.nameUrl}`]),
    // QR codes are drawn for the code only, so a printed one survives renames; at the link's address (its team's
    // domain, or PUBLIC_URL), which serves them too.
    `QR code: ${link.shortUrl}/qr`,
    `Leads to: ${link.destination}`,
    ...optionLines(link),
    STATE_LINE[link.state],
  ];
  return lines.filter((line) => line !== null).join('\n');
}

/**
 * A line for each option that differs from a new link's defaults (docs/behaviour.md, "Link options"), none for a
 * link without options. Nothing about the password but that there is one.
 */
function optionLines(link: Link): string[] {
  return [
    ...(link.expiresAt === null ? [] : [`Ends: ${link.expiresAt}`]),
    ...(link.maxClicks === null ? [] : [`Click cap: ${link.maxClicks}`]),
    ...(link.hasPassword ? ['Password: required'] : []),
    ...(link.tags.length === 0 ? [] : [`Tags: ${link.tags.join(', ')}`]),
    // New links pass it on; links made before options existed do not, which is worth knowing when a campaign's
    // parameters never arrive.
    ...(link.forwardQuery ? [] : ['Query string: not passed on']),
  ];
}

/** Every Link in a result, in the order it holds them: a Link itself, a page's rows, createLinks' made items. */
export function linksIn(value: unknown): Link[] {
  if (Array.isArray(value)) return value.flatMap(linksIn);
  if (typeof value !== 'object' || value === null) return [];
  // Only an object with a Link's keys is worth the schema's full check, which is most of this function's time.
  const link = 'code' in value && 'destination' in value ? linkSchema.safeParse(value) : null;
  return link?.success ? [link.data] : Object.values(value).flatMap(linksIn);
}
