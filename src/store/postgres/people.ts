import { EmailTaken, type Person, type PeopleStore } from '../ports.js';
import { newId } from '../../domain/ids.js';
import type { Random } from '../../domain/random.js';
import type { PgPool } from './database.js';
import { silentAccessWrite, type AccessWrite } from './access-writes.js';
import { changed, row } from './query.js';
import { PERSON_COLUMNS } from './rows.js';

/** PostgreSQL's unique_violation. */
const UNIQUE_VIOLATION = '23505';

/**
 * Emails match whatever their case, as SQLite's COLLATE NOCASE column does: `lower(email) = lower($1)` is what
 * the unique index people_email_nocase serves.
 */
const BY_EMAIL = 'lower(p.email) = lower($1)';

export function pgPeople(pool: PgPool, random: Random, accessWrite: AccessWrite = silentAccessWrite(pool)): PeopleStore {
  return {
    async add({ email, passwordHash, agreedTerms, addedByOperator = false }, now) {
      const at = now.toISOString();
      const person: Person = { id: newId('person', random), email, agreedTermsAt: agreedTerms ? at : null, createdAt: at, operator: false };
      try {
        await pool.query(
          `INSERT INTO people (id, email, password_hash, agreed_terms_at, created_at, added_by_operator)
           VALUES ($1, $2, $3, $4, $5, $6)`,
          [person.id, email, passwordHash, person.agreedTermsAt, at, addedByOperator],
        );
      } catch (error) {
        throw emailTaken(error, email);
      }
      return person;
    },
    async get(id) {
      return row<Person>(pool, `SELECT ${PERSON_COLUMNS} FROM people p WHERE p.id = $1`, [id]);
    },
    async findByEmail(email) {
      return row<Person>(pool, `SELECT ${PERSON_COLUMNS} FROM people p WHERE ${BY_EMAIL}`, [email]);
    },
    async withPasswordHash(email) {
      const found = await row<Person & { passwordHash: string | null }>(
        pool,
        `SELECT ${PERSON_COLUMNS}, p.password_hash AS "passwordHash" FROM people p WHERE ${BY_EMAIL}`,
        [email],
      );
      if (!found) return null;
      const { passwordHash, ...person } = found;
      return { person, passwordHash };
    },
    async agreeTerms(id, now) {
      // Agreeing to the terms changes what the person's tokens may do: told to every process (access-writes.ts).
      await accessWrite((client) =>
        client.query('UPDATE people SET agreed_terms_at = $1 WHERE id = $2 AND agreed_terms_at IS NULL', [now.toISOString(), id]),
      );
    },
    async setOperator(id, on) {
      // Not cached anywhere: every signed-in page reads its person afresh, so no process needs telling.
      return (await changed(pool, 'UPDATE people SET operator = $1 WHERE id = $2 AND operator <> $1', [on, id])) > 0;
    },
  };
}

/** PostgreSQL's unique violation on people's emails is the store's EmailTaken, whichever adapter runs. */
function emailTaken(error: unknown, email: string): unknown {
  if ((error as { code?: unknown } | null)?.code !== UNIQUE_VIOLATION) return error;
  return new EmailTaken(email);
}
