import { csvReader } from './csv-rows.js';
import { noteOfTitle, slugOfShortUrl, tagsOfPeer } from './peer-fields.js';

/**
 * The CSV Shlink's web client exports from its short URLs list (docs/imports.md, "Shlink"): `short_urls.csv`,
 * tags joined by `|`. Older clients wrote no shortCode column, so the slug then comes from the shortUrl's path.
 * `validUntil` and `maxVisits` are read when a file has them (a list made from Shlink's API has).
 */
export const readShlink = csvReader({
  format: 'shlink',
  kind: 'a Shlink export',
  columns: {
    destination: ['longUrl'],
    shortCode: ['shortCode'],
    shortUrl: ['shortUrl'],
    title: ['title'],
    tags: ['tags'],
    validUntil: ['validUntil'],
    maxVisits: ['maxVisits'],
  },
  row: (cell) => ({
    destination: cell('destination'),
    name: slugOfShortUrl(cell('shortCode')) ?? slugOfShortUrl(cell('shortUrl')),
    note: noteOfTitle(cell('title')),
    tags: tagsOfPeer(cell('tags'), /\|/),
    expiresAt: cell('validUntil') || null,
    maxClicks: cell('maxVisits') || null,
    fromPeer: true,
  }),
});
