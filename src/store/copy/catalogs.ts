import type { Db } from '../sqlite/database.js';
import { SQLITE_ONLY_TABLES } from '../sqlite/migrations.js';
import type { Queryable } from '../postgres/query.js';
import { rows } from '../postgres/query.js';
import type { PgTable, TableReference } from './plan.js';

/**
 * SQLite's tables and their columns in order. PRAGMA table_list tells an FTS5 table ('virtual') and the tables it
 * keeps its index in ('shadow') from ordinary ones, so both are left out without naming them: PostgreSQL's
 * trigram index replaces them. sqlite_* tables are SQLite's own bookkeeping, and SQLITE_ONLY_TABLES the store's.
 */
export function sqliteTables(db: Db): Map<string, string[]> {
  const list = db.pragma('table_list') as Array<{ schema: string; name: string; type: string }>;
  const tables = new Map<string, string[]>();
  for (const { schema, name, type } of list) {
    if (schema !== 'main' || type !== 'table' || name.startsWith('sqlite_') || SQLITE_ONLY_TABLES.includes(name)) continue;
    const columns = db.pragma(`table_info(${quoteName(name)})`) as Array<{ name: string }>;
    tables.set(name, columns.map((column) => column.name));
  }
  return tables;
}

/** The tables of the current schema with their columns in order and each column's type. */
export async function postgresTables(db: Queryable): Promise<PgTable[]> {
  const columns = await rows<{ table: string; name: string; type: string; identity: boolean }>(
    db,
    `SELECT c.table_name AS table, c.column_name AS name, c.data_type AS type,
       c.is_identity = 'YES' AND c.identity_generation = 'ALWAYS' AS identity
     FROM information_schema.columns c
     JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
     WHERE t.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
     ORDER BY c.table_name, c.ordinal_position`,
  );
  const tables = new Map<string, PgTable>();
  for (const { table, name, type, identity } of columns) {
    let entry = tables.get(table);
    if (!entry) tables.set(table, (entry = { name: table, columns: [] }));
    entry.columns.push({ name, type, identity });
  }
  return [...tables.values()];
}

/** Every foreign key of the current schema, as which table references which. */
export function postgresReferences(db: Queryable): Promise<TableReference[]> {
  return rows<TableReference>(
    db,
    `SELECT DISTINCT child.relname AS table, parent.relname AS references
     FROM pg_constraint k
     JOIN pg_class child ON child.oid = k.conrelid
     JOIN pg_class parent ON parent.oid = k.confrelid
     WHERE k.contype = 'f' AND k.connamespace = current_schema()::regnamespace`,
  );
}

/** A table or column name quoted for either database (both take standard double-quoted identifiers). */
export function quoteName(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
