import { Readable, pipeline } from 'node:stream';
import { parse, type CsvError } from 'csv-parse';
import { apiError } from '../../errors.js';
import type { ImportFormat, ImportRow, ReadRows, UnreadableRow } from '../import-row.js';

/**
 * What one import format reads from a CSV file: which header names each field's column goes by, and how a row's
 * cells become an ImportRow. `csvReader` does the rest, the same for every format.
 */
export interface CsvFormat<Field extends string> {
  format: ImportFormat;
  /** What the format reads, as a refusal names it: "a Bitly export". */
  kind: string;
  /**
   * Each field's column, by the header names it goes by, the first found winning. Names compare as `headerKey`
   * makes them: case, spaces, `_` and `-` aside, so `long_url`, `Long URL` and `longUrl` are one name.
   */
  columns: Readonly<Record<Field | 'destination', readonly string[]>>;
  /** Whether a cell may carry our own export's guard against spreadsheet formulas (a leading `'`), then removed. */
  formulaGuarded?: boolean;
  /** One row as an ImportRow, less its line: `cell` answers a field's cell trimmed, '' when the header lacks it. */
  row(cell: (field: Field | 'destination') => string): Omit<ImportRow, 'line'>;
}

/** A column name as header matching compares it: `Long URL`, `long_url` and `longUrl` all become `longurl`. */
export function headerKey(name: string): string {
  return name.trim().toLowerCase().replace(/[\s_-]+/g, '');
}

/**
 * The reader of a format: the file's header is read first, and a header without a destination column is refused
 * (400 invalid_import) before any row; then one ImportRow per record, or an UnreadableRow for a record whose width
 * is not the header's. Records stream through csv-parse one at a time: nothing is kept from one row to the next.
 */
export function csvReader<Field extends string>(spec: CsvFormat<Field>): ReadRows {
  return async function* readRows(file) {
    const records = csvRecords(file);
    const first = await records.next();
    if (first.done) throw apiError.invalidImport(`The file is empty: ${spec.kind} (--format ${spec.format}) starts with a header naming its destination column, ${names(spec.columns.destination)}.`);
    if ('fault' in first.value) throw apiError.invalidImport(`The header cannot be read as CSV: ${first.value.fault}`);
    const header = first.value.cells;
    const at = columnsAt(spec, header);
    if (at.destination === undefined) {
      throw apiError.invalidImport(
        `The file is not ${spec.kind} (--format ${spec.format}): its header names no destination column (${names(spec.columns.destination)}); it has ${listed(header)}.`,
      );
    }
    const unguard = spec.formulaGuarded ? withoutFormulaGuard : (cell: string) => cell;
    for await (const record of records) {
      if ('fault' in record) {
        yield { line: record.line, unreadable: record.fault } satisfies UnreadableRow;
        continue;
      }
      const { line, cells } = record;
      if (cells.length !== header.length) {
        yield { line, unreadable: `The row has ${cells.length} cells where the header has ${header.length}.` } satisfies UnreadableRow;
        continue;
      }
      const cell = (field: Field | 'destination'): string => {
        const index = at[field];
        return index === undefined ? '' : unguard(cells[index] ?? '').trim();
      };
      yield { line, ...spec.row(cell) } satisfies ImportRow;
    }
  };
}

/** Where each field's column is in the header; a field whose column the header lacks is absent. */
function columnsAt<Field extends string>(spec: CsvFormat<Field>, header: readonly string[]): Partial<Record<Field | 'destination', number>> {
  const keys = header.map(headerKey);
  const at: Partial<Record<Field | 'destination', number>> = {};
  for (const field of Object.keys(spec.columns) as Array<Field | 'destination'>) {
    for (const name of spec.columns[field]) {
      const index = keys.indexOf(headerKey(name));
      if (index !== -1) {
        at[field] = index;
        break;
      }
    }
  }
  return at;
}

function names(spellings: readonly string[]): string {
  return spellings.length > 1 ? `${spellings.slice(0, -1).join(', ')} or ${spellings.at(-1)}` : spellings.join('');
}

/** A header as a refusal lists it: the first names only, should a file have hundreds. */
function listed(header: readonly string[]): string {
  const shown = header.slice(0, 12).map((name) => JSON.stringify(name));
  return header.length > shown.length ? `${shown.join(', ')} and ${header.length - shown.length} more` : shown.join(', ');
}

/**
 * Our own export (shared/csv.ts) writes a `'` before a cell a spreadsheet would take for a formula (one starting
 * with = + - @ tab or CR): reading it back removes that `'`, and only that one.
 */
function withoutFormulaGuard(cell: string): string {
  return /^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell;
}

/** A record of the file, with the line it starts on (the header's is 1); or a record csv-parse could not read. */
type CsvRecord = { line: number; cells: string[] } | { line: number; fault: string };

/** How much of the file is read, at most, to find the header's line and so its delimiter. */
const HEAD_BYTES = 64 * 1024;
/** A longer record is refused rather than held: an unclosed quote would otherwise gather the whole rest of the file. */
const MAX_RECORD_CHARS = 1_000_000;

/**
 * The file's records, one at a time. The delimiter is the header line's (`,`, `;` or tab: spreadsheets in some
 * languages save with `;`, database tools with tabs); a UTF-8 BOM is dropped; lines may end in CRLF, LF or CR; a
 * record whose cells are all empty (a blank line, or `,,,`) is skipped. A record csv-parse cannot read ends the
 * file: after an unclosed quote or an oversized record nothing that follows can be told apart.
 */
async function* csvRecords(file: NodeJS.ReadableStream): AsyncGenerator<CsvRecord> {
  const chunks = file[Symbol.asyncIterator]();
  const head = await headOf(chunks);
  const parser = parse({
    bom: true,
    raw: true,
    delimiter: delimiterOf(Buffer.concat(head).toString('utf8')),
    record_delimiter: ['\r\n', '\n', '\r'],
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    max_record_size: MAX_RECORD_CHARS,
    skip_records_with_error: true,
    // A record csv-parse skips comes out in its place among the others, so its line can be told.
    on_skip: (error, raw) => {
      parser.push({ skipped: error, raw: raw ?? '' });
      return undefined;
    },
  });
  // A failure of the file or the parser reaches the loop below, as the parser is destroyed with it.
  pipeline(Readable.from(replayed(head, chunks)), parser, () => {});
  // The line the next record's raw text starts on: counted here, as csv-parse counts a CRLF in quotes as two lines.
  let line = 1;
  for await (const item of parser as AsyncIterable<{ record: string[]; raw: string } | { skipped: CsvError | undefined; raw: string }>) {
    const start = line + lineBreaks(/^[\r\n]*/.exec(item.raw)?.[0] ?? '');
    line += lineBreaks(item.raw);
    if ('skipped' in item) {
      yield { line: start, fault: faultOf(item.skipped) };
      return;
    }
    if (item.record.every((cell) => cell.trim() === '')) continue;
    yield { line: start, cells: item.record };
  }
}

/** The file's first chunks, up to its first line break (the header's end) or HEAD_BYTES. */
async function headOf(chunks: AsyncIterator<string | Buffer>): Promise<Buffer[]> {
  const head: Buffer[] = [];
  let size = 0;
  while (size < HEAD_BYTES) {
    const next = await chunks.next();
    if (next.done) break;
    const chunk = typeof next.value === 'string' ? Buffer.from(next.value) : next.value;
    head.push(chunk);
    size += chunk.length;
    if (chunk.includes(0x0a) || chunk.includes(0x0d)) break;
  }
  return head;
}

/** The head already read, then the rest of the file. */
async function* replayed(head: Buffer[], rest: AsyncIterableIterator<string | Buffer>): AsyncGenerator<string | Buffer> {
  yield* head;
  yield* rest;
}

/** The delimiter the header line uses most, outside quotes: `,`, `;` or tab; `,` when it has none. */
function delimiterOf(text: string): string {
  const counts = new Map([[',', 0], [';', 0], ['\t', 0]]);
  let quoted = false;
  for (const char of text) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) break;
    else if (!quoted && counts.has(char)) counts.set(char, counts.get(char)! + 1);
  }
  return [...counts].reduce((best, next) => (next[1] > best[1] ? next : best))[0];
}

function lineBreaks(text: string): number {
  return text.match(/\r\n|\r|\n/g)?.length ?? 0;
}

function faultOf(error: CsvError | undefined): string {
  switch (error?.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return 'A quote opened on this row is never closed, so the rest of the file cannot be read.';
    case 'CSV_MAX_RECORD_SIZE':
      return `The row is longer than ${MAX_RECORD_CHARS.toLocaleString('en-US')} characters (an unclosed quote?), so the rest of the file is not read.`;
    default:
      return `The row cannot be read as CSV${error ? ` (${error.message})` : ''}, so the rest of the file is not read.`;
  }
}
