import { EmailTaken, type Person, type PeopleStore } from '../ports.js';
import { newId } from '../../domain/ids.js';
import type { Random } from '../../domain/random.js';
import type { Db } from './database.js';

const PERSON = 'id, email, agreed_terms_at AS agreedTermsAt, created_at AS createdAt';

export function sqlitePeople(db: Db, random: Random): PeopleStore {
  const insert = db.prepare(
    'INSERT INTO people (id, email, password_hash, agreed_terms_at, created_at, added_by_operator) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const byId = db.prepare(`SELECT ${PERSON} FROM people WHERE id = ?`);
  const byEmail = db.prepare(`SELECT ${PERSON} FROM people WHERE email = ?`);
  const withHash = db.prepare(`SELECT ${PERSON}, password_hash AS passwordHash FROM people WHERE email = ?`);
  const agree = db.prepare('UPDATE people SET agreed_terms_at = ? WHERE id = ? AND agreed_terms_at IS NULL');

  return {
    async add({ email, passwordHash, agreedTerms, addedByOperator = false }, now) {
      const at = now.toISOString();
      const person: Person = { id: newId('person', random), email, agreedTermsAt: agreedTerms ? at : null, createdAt: at };
      try {
        insert.run(person.id, email, passwordHash, person.agreedTermsAt, at, addedByOperator ? 1 : 0);
      } catch (error) {
        if ((error as { code?: unknown }).code === 'SQLITE_CONSTRAINT_UNIQUE') throw new EmailTaken(email);
        throw error;
      }
      return person;
    },
    async get(id) {
      return (byId.get(id) as Person | undefined) ?? null;
    },
    async findByEmail(email) {
      return (byEmail.get(email) as Person | undefined) ?? null;
    },
    async withPasswordHash(email) {
      const row = withHash.get(email) as (Person & { passwordHash: string | null }) | undefined;
      if (!row) return null;
      const { passwordHash, ...person } = row;
      return { person, passwordHash };
    },
    async agreeTerms(id, now) {
      agree.run(now.toISOString(), id);
    },
  };
}
