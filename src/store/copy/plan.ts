/**
 * Which tables copy-database copies, with which columns, in which order. Nothing here is hand-listed: the tables and
 * columns come from both databases' catalogs (test/store/postgres-schema.test.ts keeps the two schemas twins), and
 * the order from PostgreSQL's foreign keys, so a table added by a later migration is copied without a change here.
 */

/** A table as PostgreSQL has it: its columns in order, with their types. */
export interface PgTable {
  name: string;
  columns: PgColumn[];
}

export interface PgColumn {
  name: string;
  /** information_schema's data_type: `text`, `boolean`, `bytea`, `bigint`, `integer`. */
  type: string;
  /** GENERATED ALWAYS AS IDENTITY: written only with OVERRIDING SYSTEM VALUE, its sequence moved past afterwards. */
  identity: boolean;
}

/** A foreign key between two tables: `table` references `references`. */
export interface TableReference {
  table: string;
  references: string;
}

/** copy-database refuses: the databases do not fit together, or the copy did not come out equal. */
export class CopyRefused extends Error {
  override readonly name = 'CopyRefused';
}

/** Tables only PostgreSQL has: its record of applied migrations (SQLite keeps that in PRAGMA user_version). */
export const POSTGRES_ONLY: ReadonlySet<string> = new Set(['schema_migrations']);

/**
 * The tables to copy, parents before children. `sqlite` maps each of SQLite's tables (FTS5 tables left out: the
 * trigram index replaces them) to its column names. Refuses when the two schemas differ, which means the SQLite
 * file and this installation are of different versions.
 */
export function planCopy(
  sqlite: ReadonlyMap<string, readonly string[]>,
  postgres: readonly PgTable[],
  references: readonly TableReference[],
): PgTable[] {
  const tables = postgres.filter((table) => !POSTGRES_ONLY.has(table.name));
  const pgNames = new Set(tables.map((table) => table.name));
  const onlySqlite = [...sqlite.keys()].filter((name) => !pgNames.has(name));
  const onlyPostgres = [...pgNames].filter((name) => !sqlite.has(name));
  if (onlySqlite.length > 0 || onlyPostgres.length > 0) {
    const sides = [
      onlySqlite.length > 0 ? `only SQLite has ${onlySqlite.sort().join(', ')}` : '',
      onlyPostgres.length > 0 ? `only PostgreSQL has ${onlyPostgres.sort().join(', ')}` : '',
    ];
    throw new CopyRefused(`the two schemas differ (${sides.filter(Boolean).join('; ')}); are both of this version?`);
  }
  for (const table of tables) {
    const pgColumns = table.columns.map((column) => column.name).join(', ');
    const sqliteColumns = sqlite.get(table.name)!.join(', ');
    if (pgColumns !== sqliteColumns) {
      throw new CopyRefused(`table ${table.name} differs: (${sqliteColumns}) in SQLite, (${pgColumns}) in PostgreSQL`);
    }
  }
  return parentsFirst(tables, references);
}

/**
 * Orders tables so every table comes after the tables it references (a topological sort; among tables free to go
 * next, by name, so the order is the same on every run). A table referencing itself is no obstacle: its rows
 * would need ordering, not the table. A cycle between tables cannot be copied with the keys checked, so it refuses.
 */
export function parentsFirst<T extends { name: string }>(tables: readonly T[], references: readonly TableReference[]): T[] {
  const waitingFor = new Map(tables.map((table) => [table.name, new Set<string>()]));
  for (const { table, references: parent } of references) {
    if (table !== parent && waitingFor.has(parent)) waitingFor.get(table)?.add(parent);
  }
  const byName = new Map(tables.map((table) => [table.name, table]));
  const ordered: T[] = [];
  while (waitingFor.size > 0) {
    const ready = [...waitingFor].filter(([, parents]) => parents.size === 0).map(([name]) => name).sort();
    if (ready.length === 0) throw new CopyRefused(`the foreign keys of ${[...waitingFor.keys()].sort().join(', ')} form a cycle`);
    for (const name of ready) {
      waitingFor.delete(name);
      for (const parents of waitingFor.values()) parents.delete(name);
      ordered.push(byName.get(name)!);
    }
  }
  return ordered;
}
