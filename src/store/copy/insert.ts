import type pg from 'pg';
import { quoteName } from './catalogs.js';

/** PostgreSQL numbers a statement's parameters with 16 bits: at most 65,535 in one statement. */
const MAX_PARAMETERS = 65_535;
/**
 * Rows per INSERT at most, however few the columns: bigger statements save no more round trips worth having, and
 * each batch is held in memory whole.
 */
const MAX_ROWS = 1_000;

/** Writes one table's rows in multi-row INSERTs, a batch at a time; `add` resolves once the batch it filled is in. */
export class BatchInsert {
  private readonly batch: unknown[][] = [];
  private readonly rowsPerBatch: number;
  private readonly prefix: string;
  /** The text of a full batch's statement, made once: every full batch runs as the same prepared statement. */
  private fullText: string | null = null;
  written = 0;

  constructor(
    private readonly client: pg.ClientBase,
    private readonly table: string,
    columns: readonly string[],
    overrideIdentity: boolean,
  ) {
    this.rowsPerBatch = Math.max(1, Math.min(MAX_ROWS, Math.floor(MAX_PARAMETERS / columns.length)));
    // OVERRIDING SYSTEM VALUE: a GENERATED ALWAYS identity (links.seq) keeps the value SQLite gave it.
    const overriding = overrideIdentity ? ' OVERRIDING SYSTEM VALUE' : '';
    this.prefix = `INSERT INTO ${quoteName(table)} (${columns.map(quoteName).join(', ')})${overriding} VALUES `;
  }

  async add(row: unknown[]): Promise<void> {
    this.batch.push(row);
    if (this.batch.length >= this.rowsPerBatch) await this.flush();
  }

  /** Writes what is left. */
  async flush(): Promise<void> {
    if (this.batch.length === 0) return;
    const rows = this.batch.splice(0);
    const full = rows.length === this.rowsPerBatch;
    const text = full ? (this.fullText ??= this.statement(rows.length, rows[0]!.length)) : this.statement(rows.length, rows[0]!.length);
    // A named statement is parsed and planned once per connection, not once per batch.
    const name = full ? `copy_${this.table}_${rows.length}` : undefined;
    const result = await this.client.query({ text, values: rows.flat(), ...(name ? { name } : {}) });
    this.written += result.rowCount ?? 0;
  }

  private statement(rowCount: number, width: number): string {
    const tuples: string[] = [];
    for (let row = 0; row < rowCount; row++) {
      const first = row * width;
      tuples.push(`(${Array.from({ length: width }, (_, column) => `$${first + column + 1}`).join(', ')})`);
    }
    return this.prefix + tuples.join(', ');
  }
}
