import { EmailTaken, type Person, type PeopleStore } from '../ports.js';
import { newId } from '../../domain/ids.js';
import type { Random } from '../../domain/random.js';
import type { Db } from './database.js';

/** A person's columns under their Person names (`operator` still 0/1: see personOf); the table is named `p`. */
export const PERSON_COLUMNS = 'p.id, p.email, p.agreed_terms_at AS agreedTermsAt, p.created_at AS createdAt, p.operator';

/** A row read with PERSON_COLUMNS (and maybe more) as the ports carry it: SQLite has no booleans, only 0 and 1. */
export function personOf<R extends Omit<Person, 'operator'> & { operator: number | boolean }>(row: R): R & { operator: boolean } {
  return { ...row, operator: row.operator === 1 || row.operator === true };
}

type PersonRow = Omit<Person, 'operator'> & { operator: number };

export function sqlitePeople(db: Db, random: Random): PeopleStore {
  const insert = db.prepare(
    'INSERT INTO people (id, email, password_hash, agreed_terms_at, created_at, added_by_operator) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const byId = db.prepare(`SELECT ${PERSON_COLUMNS} FROM people p WHERE id = ?`);
  const byEmail = db.prepare(`SELECT ${PERSON_COLUMNS} FROM people p WHERE email = ?`);
  const withHash = db.prepare(`SELECT ${PERSON_COLUMNS}, password_hash AS passwordHash FROM people p WHERE email = ?`);
  const agree = db.prepare('UPDATE people SET agreed_terms_at = ? WHERE id = ? AND agreed_terms_at IS NULL');
  const operator = db.prepare('UPDATE people SET operator = ? WHERE id = ? AND operator <> ?');
  const found = (row: unknown) => (row === undefined ? null : personOf(row as PersonRow));

  return {
    async add({ email, passwordHash, agreedTerms, addedByOperator = false }, now) {
      const at = now.toISOString();
      const person: Person = { id: newId('person', random), email, agreedTermsAt: agreedTerms ? at : null, createdAt: at, operator: false };
      try {
        insert.run(person.id, email, passwordHash, person.agreedTermsAt, at, addedByOperator ? 1 : 0);
      } catch (error) {
        if ((error as { code?: unknown }).code === 'SQLITE_CONSTRAINT_UNIQUE') throw new EmailTaken(email);
        throw error;
      }
      return person;
    },
    async get(id) {
      return found(byId.get(id));
    },
    async findByEmail(email) {
      return found(byEmail.get(email));
    },
    async withPasswordHash(email) {
      const row = withHash.get(email) as (PersonRow & { passwordHash: string | null }) | undefined;
      if (!row) return null;
      const { passwordHash, ...person } = row;
      return { person: personOf(person), passwordHash };
    },
    async agreeTerms(id, now) {
      agree.run(now.toISOString(), id);
    },
    async setOperator(id, on) {
      const flag = on ? 1 : 0;
      return operator.run(flag, id, flag).changes > 0;
    },
  };
}
