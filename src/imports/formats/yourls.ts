import { csvReader } from './csv-rows.js';
import { noteOfTitle, slugOfShortUrl } from './peer-fields.js';

/**
 * YOURLS's links as CSV (docs/imports.md, "YOURLS"): its `yourls_url` table exported with its column names
 * (phpMyAdmin, `mysql --batch`: keyword, url, title, timestamp, ip, clicks), or the YOURLS Import Export plugin's
 * CSV (source, target, hits; the source is `/keyword/`, and there is no title). YOURLS has no tags.
 */
export const readYourls = csvReader({
  format: 'yourls',
  kind: 'a YOURLS link list',
  columns: {
    destination: ['url', 'target'],
    keyword: ['keyword', 'source'],
    title: ['title'],
  },
  row: (cell) => ({
    destination: cell('destination'),
    name: slugOfShortUrl(cell('keyword')),
    // Database tools write a title YOURLS left empty (SQL NULL) as the word NULL.
    note: cell('title') === 'NULL' ? null : noteOfTitle(cell('title')),
    tags: [],
    expiresAt: null,
    maxClicks: null,
    fromPeer: true,
  }),
});
