import { LIFTED_LIMIT, type Limits } from '../domain/limits.js';
import { ApiError, type ErrorCode } from '../errors.js';
import type { ImportOutcome, Team } from '../store/ports.js';
import type { ToolContext } from '../tools/define-tool.js';
import type { ImportRow, UnreadableRow } from './import-row.js';
import { checkRow, type CheckedRow } from './row-checks.js';

/** Rows checked at once (their destinations' network checks run side by side), then made in one transaction. */
const BATCH = 100;

/** One row's outcome, as the CLI prints it (a JSON line) and the Import page lists it. */
export type RowOutcome =
  | { line: number; outcome: 'made' | 'to_make'; code: string | null; name: string | null; leftOut: string[] }
  | { line: number; outcome: 'duplicate'; code: string }
  | { line: number; outcome: 'failed'; status: number; error: ErrorCode; message: string; field: string | null };

export interface ImportOptions {
  /** Outcomes only: each batch is made and rolled back (links.importMany), so they are the real run's. */
  dryRun: boolean;
  /** The operator's `--no-limits`: the team's creation limits do not apply (the web's imports never lift them). */
  liftLimits: boolean;
}

/**
 * Makes the rows' links in `team`, batch by batch as they are read, each row checked as createLink checks it: an
 * outcome per row, in the file's order, while the rows stream in. Nothing is held but one batch, so a file of any
 * length takes the same memory; a batch's links commit together, so a stopped import keeps whole batches and runs
 * again without doubling them (a row already in the team is a duplicate).
 */
export async function* importRows(
  ctx: ToolContext,
  team: Team,
  rows: AsyncIterable<ImportRow | UnreadableRow>,
  options: ImportOptions,
): AsyncGenerator<RowOutcome> {
  let batch: Array<ImportRow | UnreadableRow> = [];
  for await (const row of rows) {
    batch.push(row);
    if (batch.length < BATCH) continue;
    yield* await importBatch(ctx, team, batch, options);
    batch = [];
  }
  if (batch.length > 0) yield* await importBatch(ctx, team, batch, options);
}

async function importBatch(ctx: ToolContext, team: Team, rows: Array<ImportRow | UnreadableRow>, options: ImportOptions): Promise<RowOutcome[]> {
  const checked = await Promise.all(rows.map((row) => ('unreadable' in row ? unreadable(row) : checkRow(ctx, team, row))));
  const passed = checked.filter((outcome): outcome is CheckedRow => !(outcome instanceof ApiError));
  const limits = await limitsFor(ctx, options);
  const stored = passed.length === 0 ? [] : await ctx.store.links.importMany(passed.map((row) => row.item), limits, ctx.clock.now(), options.dryRun);
  let next = 0;
  return checked.map((outcome, i) => {
    const line = rows[i]!.line;
    if (outcome instanceof ApiError) return failed(line, outcome);
    return outcomeOf(line, stored[next++]!, outcome, options.dryRun);
  });
}

async function limitsFor(ctx: ToolContext, options: ImportOptions): Promise<Limits> {
  const limits = await ctx.store.settings.limits();
  if (!options.liftLimits) return limits;
  return { ...limits, maxLinksPerTeam: LIFTED_LIMIT, perHour: LIFTED_LIMIT, perDay: LIFTED_LIMIT, firstWeekPerDay: LIFTED_LIMIT };
}

function outcomeOf(line: number, stored: ImportOutcome, { item, leftOut }: CheckedRow, dryRun: boolean): RowOutcome {
  if (stored instanceof ApiError) return failed(line, stored);
  if ('duplicateOf' in stored) return { line, outcome: 'duplicate', code: stored.duplicateOf };
  // Said as row-checks.ts says what it left out.
  const slug = stored.nameLeftOut === null ? [] : [`The name "${item.name}" left out: ${stored.nameLeftOut.detail}`];
  // A dry run's code was drawn in a transaction rolled back: it is no link's, so it is not shown.
  const code = dryRun ? null : stored.made.code;
  return { line, outcome: dryRun ? 'to_make' : 'made', code, name: stored.made.name, leftOut: [...leftOut, ...slug] };
}

function failed(line: number, error: ApiError): RowOutcome {
  return { line, outcome: 'failed', status: error.status, error: error.code, message: error.detail, field: error.field };
}

async function unreadable(row: UnreadableRow): Promise<ApiError> {
  return new ApiError('invalid_import', row.unreadable);
}
