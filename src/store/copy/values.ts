import { CopyRefused, type PgColumn } from './plan.js';

/** Turns one SQLite value (read with safe integers: every integer a bigint) into the parameter PostgreSQL takes. */
export type Convert = (value: unknown) => unknown;

/**
 * How a value of each PostgreSQL column type is written. SQLite's integers arrive as bigint, so none is rounded on
 * the way, and go out as decimal text, which PostgreSQL parses exactly. A type with no entry refuses the copy: a
 * new column type must be given its conversion here rather than be copied by guess.
 */
const BY_TYPE: Readonly<Record<string, (value: unknown) => unknown>> = {
  text: (value) => (typeof value === 'string' ? value : undefined),
  // SQLite keeps flags as 0/1 (people.added_by_operator, people.operator, tokens.limited, names.retired).
  boolean: (value) => (value === 1n ? true : value === 0n ? false : undefined),
  bytea: (value) => (Buffer.isBuffer(value) ? value : undefined),
  bigint: (value) => (typeof value === 'bigint' ? value.toString() : undefined),
  integer: (value) => (typeof value === 'bigint' ? value.toString() : undefined),
};

/** The conversion for `table.column`; a value it cannot convert refuses the copy, naming the column. */
export function converterFor(table: string, column: PgColumn): Convert {
  const convert = BY_TYPE[column.type];
  if (!convert) throw new CopyRefused(`${table}.${column.name} is of type ${column.type}, which copy-database cannot copy yet`);
  return (value) => {
    if (value === null) return null;
    const converted = convert(value);
    // Names the kind of value, never the value: it may be a hash or a secret.
    if (converted === undefined) throw new CopyRefused(`${table}.${column.name} holds ${kindOf(value)} where PostgreSQL wants ${column.type}`);
    return converted;
  };
}

function kindOf(value: unknown): string {
  if (Buffer.isBuffer(value)) return 'a blob';
  // Numbers are never secrets, and a flag holding 2 is best shown as 2.
  if (typeof value === 'bigint' || typeof value === 'number') return `the number ${value}`;
  return typeof value === 'string' ? 'text' : `a ${typeof value}`;
}
