import type { ImportFormat, ReadRows } from '../import-row.js';
import { readBitly } from './bitly.js';
import { readKutt } from './kutt.js';
import { readPlainCsv } from './plain-csv.js';
import { readShlink } from './shlink.js';
import { readYourls } from './yourls.js';

const readers: Readonly<Record<ImportFormat, ReadRows>> = {
  bitly: readBitly,
  shlink: readShlink,
  kutt: readKutt,
  yourls: readYourls,
  csv: readPlainCsv,
};

/** The reader of a format's files (`import --format`): each turns a CSV stream into rows, one at a time. */
export function readerOf(format: ImportFormat): ReadRows {
  return readers[format];
}
