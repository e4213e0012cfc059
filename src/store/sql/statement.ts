/**
 * SQL written once for both adapters. A statement names its parameters (`:code`); better-sqlite3 binds such names
 * itself, and for pg the text is rendered once, when the statement is declared, to `$1..$n` with the order its
 * values go in. Where the databases really differ (locks, collations, casts), the text is a function of the
 * dialect, so the two variants stand side by side in one line.
 */

/** Values bound by name; a statement without parameters takes `{}`. */
export type Params = object;

/** What differs between the databases inside a statement otherwise written once. */
export interface Dialect {
  readonly name: 'sqlite' | 'postgres';
  /**
   * Locks the rows read until the transaction ends, against every other process (PostgreSQL). SQLite's write
   * transaction holds the whole file from its start, so there it is nothing.
   */
  readonly forUpdate: string;
  /** Locks the rows read against deletion and key changes only, until the transaction ends (PostgreSQL). */
  readonly forKeyShare: string;
  /**
   * After text in ORDER BY and keyset comparisons: SQLite compares text byte by byte, PostgreSQL by the database's
   * locale, which may sort `a` before `B`; byte order ("C") keeps both adapters' pages identical.
   */
  readonly bytes: string;
  /** A parameter whose type PostgreSQL cannot infer (one only tested for NULL): cast there, bare in SQLite. */
  typed(param: string, type: string): string;
}

const SQLITE: Dialect = { name: 'sqlite', forUpdate: '', forKeyShare: '', bytes: '', typed: (param) => param };

const POSTGRES: Dialect = {
  name: 'postgres',
  forUpdate: ' FOR UPDATE',
  forKeyShare: ' FOR KEY SHARE',
  bytes: ' COLLATE "C"',
  typed: (param, type) => `${param}::${type}`,
};

/** A statement's PostgreSQL text and the names whose values fill `$1..$n`, in that order. */
export interface Positional {
  readonly text: string;
  readonly names: readonly string[];
}

/**
 * One statement for both databases, taking parameters `P` and reading rows `R` (type only: the drivers do not
 * check them). Made by `sql`.
 */
export interface Statement<P extends Params = Params, R = unknown> {
  /** The text better-sqlite3 prepares, parameters named. */
  readonly sqlite: string;
  readonly postgres: Positional;
  /** Carries the types only; never set. */
  readonly types?: { params: P; row: R };
}

/** SQL written once: the same text for both databases, or a function of the dialect where they differ. */
export type DialectText = string | ((dialect: Dialect) => string);

/** `text` as the database `name` takes it. */
export function textFor(text: DialectText, name: Dialect['name']): string {
  return typeof text === 'string' ? text : text(name === 'sqlite' ? SQLITE : POSTGRES);
}

/**
 * Declares a statement: the same text for both databases, or a function of the dialect where they differ. Both
 * texts are made here, once, so running the statement renders nothing.
 */
export function sql<P extends Params = Params, R = unknown>(text: DialectText): Statement<P, R> {
  return { sqlite: textFor(text, 'sqlite'), postgres: positional(textFor(text, 'postgres')) };
}

/**
 * Quoted text and identifiers, comments, `::` casts and named parameters, in the order they are tried: a name
 * inside a literal, an identifier or a comment is skipped with it, and a cast is never taken for a name.
 */
const TOKENS = /'(?:[^']|'')*'|"(?:[^"]|"")*"|--[^\n]*|\/\*[\s\S]*?\*\/|::|:([A-Za-z_][A-Za-z0-9_]*)/g;

/** Renders named parameters as `$1..$n` (a name used twice is one parameter) and says which name is which. */
export function positional(text: string): Positional {
  const names: string[] = [];
  const rendered = text.replace(TOKENS, (token, name: string | undefined) => {
    if (name === undefined) return token;
    const at = names.indexOf(name);
    return `$${at < 0 ? names.push(name) : at + 1}`;
  });
  return { text: rendered, names };
}

/**
 * The values of `$1..$n`, in order. A name with no value is refused rather than bound as NULL: it is a mistake in
 * the code calling, which SQLite refuses too ("Missing named parameter").
 */
export function positionalValues({ names }: Positional, params: Params): unknown[] {
  return names.map((name) => {
    const value = (params as Record<string, unknown>)[name];
    if (value === undefined) throw new RangeError(`Missing named parameter "${name}"`);
    return value;
  });
}

/** A 0/1 flag (SQLite) or a boolean (PostgreSQL), as the ports carry it. */
export function flag(value: number | boolean | null): boolean {
  return value === true || value === 1;
}
