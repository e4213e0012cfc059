import { csvReader } from './csv-rows.js';
import { noteOfTitle, slugOfShortUrl } from './peer-fields.js';

/**
 * Kutt's links as CSV (docs/imports.md, "Kutt"): Kutt has no export button, so the file is its API's link list
 * (GET /api/v2/links) or its `links` table written as CSV, whose columns bear the same names. The slug is the
 * link's `address` (its custom URL), else the path of its short `link`; its description is the title. Kutt has no
 * tags.
 */
export const readKutt = csvReader({
  format: 'kutt',
  kind: 'a Kutt link list',
  columns: {
    destination: ['target', 'Target URL', 'Original URL'],
    address: ['address', 'Custom URL'],
    link: ['link', 'Short link', 'Short URL'],
    description: ['description'],
  },
  row: (cell) => ({
    destination: cell('destination'),
    name: slugOfShortUrl(cell('address')) ?? slugOfShortUrl(cell('link')),
    note: noteOfTitle(cell('description')),
    tags: [],
    expiresAt: null,
    maxClicks: null,
    fromPeer: true,
  }),
});
