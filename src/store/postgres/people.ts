import { EmailTaken, type Person, type PeopleStore } from '../ports.js';
import { newId } from '../../domain/ids.js';
import type { Random } from '../../domain/random.js';
import type { PgPool } from './database.js';
import { silentAccessWrite, type AccessWrite } from './access-writes.js';
import { peopleSql, personOf, type PersonRead } from '../sql/people.js';
import { changed, row, run } from './query.js';

/** PostgreSQL's unique_violation. */
const UNIQUE_VIOLATION = '23505';

export function pgPeople(pool: PgPool, random: Random, accessWrite: AccessWrite = silentAccessWrite(pool)): PeopleStore {
  const found = (read: PersonRead | null) => read && personOf(read);
  return {
    async add({ email, passwordHash, agreedTerms, addedByOperator = false }, now) {
      const at = now.toISOString();
      const person: Person = { id: newId('person', random), email, agreedTermsAt: agreedTerms ? at : null, createdAt: at, operator: false };
      try {
        await run(pool, peopleSql.insert, { id: person.id, email, passwordHash, agreedTermsAt: person.agreedTermsAt, createdAt: at, addedByOperator: addedByOperator ? 1 : 0 });
      } catch (error) {
        throw emailTaken(error, email);
      }
      return person;
    },
    async get(id) {
      return found(await row(pool, peopleSql.byId, { id }));
    },
    async findByEmail(email) {
      return found(await row(pool, peopleSql.byEmail, { email }));
    },
    async withPasswordHash(email) {
      const read = await row(pool, peopleSql.withPasswordHash, { email });
      if (!read) return null;
      const { passwordHash, ...person } = read;
      return { person: personOf(person), passwordHash };
    },
    async agreeTerms(id, now) {
      // Agreeing to the terms changes what the person's tokens may do: told to every process (access-writes.ts).
      await accessWrite((client) => run(client, peopleSql.agreeTerms, { id, at: now.toISOString() }));
    },
    async setOperator(id, on) {
      // Not cached anywhere: every signed-in page reads its person afresh, so no process needs telling.
      return (await changed(pool, peopleSql.setOperator, { id, operator: on ? 1 : 0 })) > 0;
    },
  };
}

/** PostgreSQL's unique violation on people's emails is the store's EmailTaken, whichever adapter runs. */
function emailTaken(error: unknown, email: string): unknown {
  if ((error as { code?: unknown } | null)?.code !== UNIQUE_VIOLATION) return error;
  return new EmailTaken(email);
}
