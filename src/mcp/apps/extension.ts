/**
 * The MCP Apps extension (`io.modelcontextprotocol/ui`, revision 2026-01-26) as this server speaks it: which tool
 * shows which view, and whether a client asked for views at all. A client that did not declare the extension gets
 * exactly what it got before views existed: no `_meta.ui` on the tools, nothing extra in the results.
 */
import type { ToolView } from '../../tools/define-tool.js';
import { toolNamed } from '../../tools/index.js';

export const UI_EXTENSION = 'io.modelcontextprotocol/ui';
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';

/** A view's resource address. */
export function viewUri(view: ToolView): string {
  return `ui://shortlinks/${view}`;
}

export const LINK_CARD_URI = viewUri('link-card');
export const CLICKS_CHART_URI = viewUri('clicks-chart');
export const LINK_LIST_URI = viewUri('link-list');

/** The address of the view the tool's result is shown in (the tool's `view`); none for a tool without one. */
export function viewOfTool(name: string): string | undefined {
  const view = toolNamed(name)?.view;
  return view === undefined ? undefined : viewUri(view);
}

/** True when the client declared the extension with the HTML views' media type (what the extension requires). */
export function showsApps(capabilities: unknown): boolean {
  const extensions = (capabilities as { extensions?: unknown } | undefined)?.extensions;
  if (typeof extensions !== 'object' || extensions === null) return false;
  const ui = (extensions as Record<string, unknown>)[UI_EXTENSION] as { mimeTypes?: unknown } | undefined;
  return Array.isArray(ui?.mimeTypes) && ui.mimeTypes.includes(APP_MIME_TYPE);
}
