/**
 * The MCP Apps extension (`io.modelcontextprotocol/ui`, revision 2026-01-26) as this server speaks it: which tool
 * shows which view, and whether a client asked for views at all. A client that did not declare the extension gets
 * exactly what it got before views existed: no `_meta.ui` on the tools, nothing extra in the results.
 */
export const UI_EXTENSION = 'io.modelcontextprotocol/ui';
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';

export const LINK_CARD_URI = 'ui://shortlinks/link-card';
export const CLICKS_CHART_URI = 'ui://shortlinks/clicks-chart';
export const LINK_LIST_URI = 'ui://shortlinks/link-list';

/** The view each tool's result is shown in; tools not named here (deleteLink, myTeams, ...) have none. */
const VIEW_OF_TOOL: Readonly<Record<string, string>> = {
  createLink: LINK_CARD_URI,
  createLinks: LINK_CARD_URI,
  linkByCode: LINK_CARD_URI,
  changeDestination: LINK_CARD_URI,
  renameLink: LINK_CARD_URI,
  setNote: LINK_CARD_URI,
  linkClicks: CLICKS_CHART_URI,
  teamLinks: LINK_LIST_URI,
};

export function viewOfTool(name: string): string | undefined {
  return Object.hasOwn(VIEW_OF_TOOL, name) ? VIEW_OF_TOOL[name] : undefined;
}

/** True when the client declared the extension with the HTML views' media type (what the extension requires). */
export function showsApps(capabilities: unknown): boolean {
  const extensions = (capabilities as { extensions?: unknown } | undefined)?.extensions;
  if (typeof extensions !== 'object' || extensions === null) return false;
  const ui = (extensions as Record<string, unknown>)[UI_EXTENSION] as { mimeTypes?: unknown } | undefined;
  return Array.isArray(ui?.mimeTypes) && ui.mimeTypes.includes(APP_MIME_TYPE);
}
