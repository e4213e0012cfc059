import { csvReader } from './csv-rows.js';

/**
 * A plain CSV of our own fields (docs/imports.md, "Plain CSV"), our export among them: the columns destination,
 * name, note, tags, expiresAt and maxClicks, in any order and case, any other column ignored. Cells are taken as
 * they are, for the import to check as createLink checks its params; tags are one cell, separated by commas
 * and/or spaces.
 */
export const readPlainCsv = csvReader({
  format: 'csv',
  kind: 'a plain CSV',
  columns: {
    destination: ['destination'],
    name: ['name'],
    note: ['note'],
    tags: ['tags'],
    expiresAt: ['expiresAt'],
    maxClicks: ['maxClicks'],
  },
  formulaGuarded: true,
  row: (cell) => ({
    destination: cell('destination'),
    name: cell('name') || null,
    note: cell('note') || null,
    tags: cell('tags').split(/[\s,]+/).filter((tag) => tag !== ''),
    expiresAt: cell('expiresAt') || null,
    maxClicks: cell('maxClicks') || null,
    fromPeer: false,
  }),
});
