import { ResourceNotFoundError, type ReadResourceResult, type Resource } from '@modelcontextprotocol/server';
import { clicksChart } from './clicks-chart.js';
import { viewDocument, type View, type ViewFacts } from './document.js';
import { APP_MIME_TYPE, CLICKS_CHART_URI, LINK_CARD_URI, LINK_LIST_URI } from './extension.js';
import { linkCard } from './link-card.js';
import { linkList } from './link-list.js';

interface AppResource {
  uri: string;
  name: string;
  description: string;
  view: View;
}

const APP_RESOURCES: readonly AppResource[] = [
  { uri: LINK_CARD_URI, name: 'link-card', description: 'A short link: its addresses, QR code, destination, note, state and options.', view: linkCard },
  { uri: CLICKS_CHART_URI, name: 'clicks-chart', description: 'The clicks of a short link over 30 days.', view: clicksChart },
  { uri: LINK_LIST_URI, name: 'link-list', description: "A page of a team's short links.", view: linkList },
];

/**
 * What the host should allow the views: no outside origin at all (empty lists are the extension's "nothing"), the
 * clipboard for the copy buttons, and a border around them.
 */
const UI_META = {
  ui: {
    csp: { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] },
    permissions: { clipboardWrite: {} },
    prefersBorder: true,
  },
};

/** The `resources/list` answer: the three views. */
export function listAppResources(): Resource[] {
  return APP_RESOURCES.map(({ uri, name, view, description }) => ({ uri, name, title: view.title, description, mimeType: APP_MIME_TYPE, _meta: UI_META }));
}

const documents = new Map<string, string>();

/** The `resources/read` answer for a view; any other address is the revision's "resource not found". */
export function readAppResource(uri: string, facts: ViewFacts): ReadResourceResult {
  const resource = APP_RESOURCES.find((candidate) => candidate.uri === uri);
  if (!resource) throw new ResourceNotFoundError(uri);
  // A view depends on the server's facts alone, which are fixed while the server runs.
  const key = `${facts.publicUrl} ${facts.dbIp} ${uri}`;
  let text = documents.get(key);
  if (text === undefined) {
    text = viewDocument(resource.view, facts);
    documents.set(key, text);
  }
  return { contents: [{ uri, mimeType: APP_MIME_TYPE, text, _meta: UI_META }] };
}
