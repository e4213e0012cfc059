import type { EmailChangeResult, EmailChangeStore } from '../ports.js';
import { linkNotValid } from '../password-link-state.js';
import { emailChangeSql } from '../sql/email-changes.js';
import { peopleSql, personOf } from '../sql/people.js';
import { writeTransaction, type Db } from './database.js';
import { prepare, prepareAll } from './prepare.js';

export function sqliteEmailChanges(db: Db): EmailChangeStore {
  const s = prepareAll(db, emailChangeSql);
  const byId = prepare(db, peopleSql.byId);
  const issue = writeTransaction(db, (personId: string, email: string, tokenHash: Buffer, expiresAt: Date, now: Date) => {
    s.forget.run({ personId });
    s.insert.run({ tokenHash, personId, email, createdAt: now.toISOString(), expiresAt: expiresAt.toISOString() });
  });
  // Checked and changed in one write transaction: no sign-up or other change can take the address in between.
  const confirm = writeTransaction(db, (tokenHash: Buffer, now: Date): EmailChangeResult => {
    const row = s.byHash.get({ tokenHash });
    const not = linkNotValid(row, now);
    if (not !== null) return { kind: not };
    const { personId, email } = row!;
    if (s.takenBy.get({ email, personId })) return { kind: 'taken', email };
    s.setEmail.run({ personId, email });
    s.spend.run({ tokenHash, at: now.toISOString() });
    return { kind: 'changed', person: personOf(byId.get({ id: personId })!) };
  });
  return {
    async issue({ personId, email, tokenHash, expiresAt }, now) {
      issue(personId, email, tokenHash, expiresAt, now);
    },
    async confirm(tokenHash, now) {
      return confirm(tokenHash, now);
    },
  };
}
