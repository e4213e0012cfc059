/**
 * CSV as RFC 4180 writes it: fields separated by commas, records ended by CRLF, a field that holds a comma, a double
 * quote, CR or LF in double quotes with its quotes doubled. Text that a spreadsheet would take for a formula (a
 * field starting with =, +, -, @, tab or CR) gets a leading `'`, so opening an export never runs anything a link's
 * name or a referrer smuggled in (OWASP's advice on CSV injection). Numbers are written as they are.
 */
export type CsvCell = string | number;

/** Characters that make a spreadsheet read a cell as a formula when they come first. */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One field as written: neutralised when it could start a formula, then quoted when it must be. */
export function csvField(cell: CsvCell): string {
  if (typeof cell === 'number') return String(cell);
  const text = FORMULA_START.test(cell) ? `'${cell}` : cell;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A whole file: the header, then one record per row, every record (the last too) ended by CRLF. */
export function csvText(header: readonly string[], rows: ReadonlyArray<readonly CsvCell[]>): string {
  return [header, ...rows].map((record) => `${record.map(csvField).join(',')}\r\n`).join('');
}
