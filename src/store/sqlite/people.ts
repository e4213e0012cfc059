import { EmailTaken, type Person, type PeopleStore } from '../ports.js';
import { newId } from '../../domain/ids.js';
import type { Random } from '../../domain/random.js';
import { peopleSql, personOf, type PersonRead } from '../sql/people.js';
import type { Db } from './database.js';
import { prepareAll } from './prepare.js';

export function sqlitePeople(db: Db, random: Random): PeopleStore {
  const s = prepareAll(db, peopleSql);
  const found = (row: PersonRead | undefined) => (row === undefined ? null : personOf(row));

  return {
    async add({ email, passwordHash, agreedTerms, addedByOperator = false }, now) {
      const at = now.toISOString();
      const person: Person = { id: newId('person', random), email, agreedTermsAt: agreedTerms ? at : null, createdAt: at, operator: false };
      try {
        s.insert.run({ id: person.id, email, passwordHash, agreedTermsAt: person.agreedTermsAt, createdAt: at, addedByOperator: addedByOperator ? 1 : 0 });
      } catch (error) {
        if ((error as { code?: unknown }).code === 'SQLITE_CONSTRAINT_UNIQUE') throw new EmailTaken(email);
        throw error;
      }
      return person;
    },
    async get(id) {
      return found(s.byId.get({ id }));
    },
    async findByEmail(email) {
      return found(s.byEmail.get({ email }));
    },
    async withPasswordHash(email) {
      const row = s.withPasswordHash.get({ email });
      if (!row) return null;
      const { passwordHash, ...person } = row;
      return { person: personOf(person), passwordHash };
    },
    async agreeTerms(id, now) {
      s.agreeTerms.run({ id, at: now.toISOString() });
    },
    async setOperator(id, on) {
      return s.setOperator.run({ id, operator: on ? 1 : 0 }).changes > 0;
    },
  };
}
