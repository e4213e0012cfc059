import type { Person } from '../ports.js';
import { flag, sql, type Dialect } from './statement.js';

/** A person's columns under their Person names (`operator` still 0/1 in SQLite: see personOf); the table is `p`. */
export const PERSON_COLUMNS = 'p.id, p.email, p.agreed_terms_at AS "agreedTermsAt", p.created_at AS "createdAt", p.operator';

/** A row read with PERSON_COLUMNS (and maybe more): SQLite has no booleans, only 0 and 1. */
export type PersonRead = Omit<Person, 'operator'> & { operator: number | boolean };

/** A row read with PERSON_COLUMNS (and maybe more) as the ports carry it. */
export function personOf<R extends PersonRead>(row: R): R & { operator: boolean } {
  return { ...row, operator: flag(row.operator) };
}

/**
 * People `p` whose email is `:email`, whatever its case: SQLite's email column is COLLATE NOCASE, and
 * PostgreSQL's unique index people_email_nocase is on lower(email), which this form of the test uses.
 */
export const byEmail = (d: Dialect) => (d.name === 'postgres' ? 'lower(p.email) = lower(:email)' : 'p.email = :email');

/**
 * People. Flags are bound as 0 or 1: SQLite binds no booleans, and PostgreSQL reads '1' and '0' as a boolean's
 * text.
 */
export const peopleSql = {
  insert: sql<{ id: string; email: string; passwordHash: string | null; agreedTermsAt: string | null; createdAt: string; addedByOperator: 0 | 1 }>(
    `INSERT INTO people (id, email, password_hash, agreed_terms_at, created_at, added_by_operator)
     VALUES (:id, :email, :passwordHash, :agreedTermsAt, :createdAt, :addedByOperator)`,
  ),
  byId: sql<{ id: string }, PersonRead>(`SELECT ${PERSON_COLUMNS} FROM people p WHERE p.id = :id`),
  byEmail: sql<{ email: string }, PersonRead>((d) => `SELECT ${PERSON_COLUMNS} FROM people p WHERE ${byEmail(d)}`),
  withPasswordHash: sql<{ email: string }, PersonRead & { passwordHash: string | null }>(
    (d) => `SELECT ${PERSON_COLUMNS}, p.password_hash AS "passwordHash" FROM people p WHERE ${byEmail(d)}`,
  ),
  agreeTerms: sql<{ id: string; at: string }>('UPDATE people SET agreed_terms_at = :at WHERE id = :id AND agreed_terms_at IS NULL'),
  setOperator: sql<{ id: string; operator: 0 | 1 }>('UPDATE people SET operator = :operator WHERE id = :id AND operator <> :operator'),
};
