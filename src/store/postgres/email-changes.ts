import type { EmailChangeResult, EmailChangeStore } from '../ports.js';
import { linkNotValid } from '../password-link-state.js';
import { emailChangeSql } from '../sql/email-changes.js';
import { peopleSql, personOf } from '../sql/people.js';
import type { PgPool } from './database.js';
import { row, run, transaction } from './query.js';

/** PostgreSQL's unique_violation: someone took the address between the check and the change. */
const UNIQUE_VIOLATION = '23505';

export function pgEmailChanges(pool: PgPool): EmailChangeStore {
  return {
    issue({ personId, email, tokenHash, expiresAt }, now) {
      return transaction(pool, async (client) => {
        await run(client, emailChangeSql.forget, { personId });
        await run(client, emailChangeSql.insert, { tokenHash, personId, email, createdAt: now.toISOString(), expiresAt: expiresAt.toISOString() });
      });
    },
    async confirm(tokenHash, now) {
      try {
        return await transaction<EmailChangeResult>(pool, async (client) => {
          // The link's row locked, so two confirmations at once change the email once.
          const link = await row(client, emailChangeSql.byHash, { tokenHash });
          const not = linkNotValid(link, now);
          if (not !== null) return { kind: not };
          const { personId, email } = link!;
          if (await row(client, emailChangeSql.takenBy, { email, personId })) return { kind: 'taken', email };
          await run(client, emailChangeSql.setEmail, { personId, email });
          await run(client, emailChangeSql.spend, { tokenHash, at: now.toISOString() });
          return { kind: 'changed', person: personOf((await row(client, peopleSql.byId, { id: personId }))!) };
        });
      } catch (error) {
        // A sign-up or another change that took the address after the check: the unique index refused this one.
        if ((error as { code?: unknown } | null)?.code !== UNIQUE_VIOLATION) throw error;
        const link = await row(pool, emailChangeSql.byHash, { tokenHash });
        return link ? { kind: 'taken', email: link.email } : { kind: 'unknown' };
      }
    },
  };
}
