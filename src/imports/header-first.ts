import type { ImportFormat, ImportRow, UnreadableRow } from './import-row.js';
import { readerOf } from './formats/index.js';

/**
 * The file's rows in `format`, its header read before this answers: a file of another format is refused (400
 * invalid_import) before anything is made or printed, and each row's fault is then its own outcome.
 */
export async function rowsOf(format: ImportFormat, file: NodeJS.ReadableStream): Promise<AsyncIterable<ImportRow | UnreadableRow>> {
  const rows = readerOf(format)(file)[Symbol.asyncIterator]();
  const first = await rows.next();
  return (async function* () {
    if (first.done) return;
    yield first.value;
    for (let next = await rows.next(); !next.done; next = await rows.next()) yield next.value;
  })();
}
