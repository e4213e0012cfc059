import { apiError } from '../errors.js';
import { IMPORT_FORMATS, type ImportFormat } from '../imports/import-row.js';
import { rowsOf } from '../imports/header-first.js';
import { importRows, type ImportOptions, type RowOutcome } from '../imports/run-import.js';
import type { ToolContext } from '../tools/define-tool.js';
import { teamById } from './lookup.js';
import { quote } from './quote.js';

/** The format a command line or a form names, or 400 naming the choices. */
export function importFormat(raw: string, field = 'format'): ImportFormat {
  const format = IMPORT_FORMATS.find((known) => known === raw.trim().toLowerCase());
  if (format === undefined) throw apiError.badRequest(`the format must be one of ${IMPORT_FORMATS.join(', ')}: ${quote(raw)}`, field);
  return format;
}

/**
 * `import --team T --format F FILE`: the operator's import into any team, every row's outcome as it is made (the
 * header read first: imports/header-first.ts).
 */
export async function importFile(
  ctx: ToolContext,
  input: { team: string; format: string; file: NodeJS.ReadableStream } & ImportOptions,
): Promise<AsyncIterable<RowOutcome>> {
  const format = importFormat(input.format);
  const team = await teamById(ctx.store, input.team);
  return importRows(ctx, team, await rowsOf(format, input.file), input);
}
