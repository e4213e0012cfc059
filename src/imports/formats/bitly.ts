import { csvReader } from './csv-rows.js';
import { noteOfTitle, slugOfShortUrl, tagsOfPeer } from './peer-fields.js';

/**
 * Bitly's CSV export of a group's links (docs/imports.md, "Bitly"). Its header is not published, so each column
 * goes by the names Bitly's API and its exports are known to use. The slug is the custom back-half when the link
 * has one, else the path of the bit.ly link; tags come in one cell, separated by `,`, `;` or `|`.
 */
export const readBitly = csvReader({
  format: 'bitly',
  kind: 'a Bitly export',
  columns: {
    destination: ['long_url', 'Long URL', 'Destination URL', 'Original URL'],
    customLink: ['custom_bitlinks', 'Custom link', 'Custom bitlink', 'Custom back-half'],
    link: ['link', 'Bitlink', 'Short link', 'Short URL'],
    title: ['title'],
    tags: ['tags'],
  },
  row: (cell) => ({
    destination: cell('destination'),
    // Several custom back-halves may share the cell: the first is the link's.
    name: slugOfShortUrl(cell('customLink').split(/[\s,;|]+/)[0] ?? '') ?? slugOfShortUrl(cell('link')),
    note: noteOfTitle(cell('title')),
    tags: tagsOfPeer(cell('tags'), /[,;|]/),
    expiresAt: null,
    maxClicks: null,
    fromPeer: true,
  }),
});
