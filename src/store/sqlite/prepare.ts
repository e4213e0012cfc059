import type Database from 'better-sqlite3';
import type { Params, Statement } from '../sql/statement.js';
import type { Db } from './database.js';

/** A shared statement prepared on a connection: its parameters bound by name, its rows typed. */
export interface Prepared<P extends Params, R> {
  get(params: P): R | undefined;
  all(params: P): R[];
  run(params: P): Database.RunResult;
}

const prepared = new WeakMap<Db, WeakMap<Statement<object, unknown>, Prepared<object, unknown>>>();

/**
 * Prepares a shared statement (store/sql) once per connection, however many stores ask for it. better-sqlite3
 * binds `:name` itself, so this is the driver's own statement, typed: nothing is added on the path of a call.
 * (Sharing is safe: get, all and run finish before they return.)
 */
export function prepare<P extends Params, R>(db: Db, statement: Statement<P, R>): Prepared<P, R> {
  let made = prepared.get(db);
  if (!made) prepared.set(db, (made = new WeakMap()));
  let statementOf = made.get(statement);
  if (!statementOf) made.set(statement, (statementOf = db.prepare(statement.sqlite) as unknown as Prepared<object, unknown>));
  return statementOf as Prepared<P, R>;
}

/** Prepares every statement of a group (store/sql), each under its name. */
export function prepareAll<S extends Record<string, Statement<object, unknown>>>(db: Db, statements: S): { [K in keyof S]: PreparedOf<S[K]> } {
  const entries = Object.entries(statements).map(([name, statement]) => [name, prepare(db, statement)]);
  return Object.fromEntries(entries) as { [K in keyof S]: PreparedOf<S[K]> };
}

type PreparedOf<S> = S extends Statement<infer P, infer R> ? Prepared<P, R> : never;
