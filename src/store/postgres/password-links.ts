import type { PasswordLinkState, PasswordLinkStore } from '../ports.js';
import { passwordLinkState } from '../password-link-state.js';
import { passwordLinkSql } from '../sql/password-links.js';
import { personOf } from '../sql/people.js';
import type { PgPool } from './database.js';
import { changed, row, run, transaction, type Queryable } from './query.js';

async function stateOf(db: Queryable, statement: typeof passwordLinkSql.byHash, tokenHash: Buffer, now: Date): Promise<PasswordLinkState> {
  const found = await row(db, statement, { tokenHash });
  return passwordLinkState(found && personOf(found), now);
}

export function pgPasswordLinks(pool: PgPool): PasswordLinkStore {
  return {
    issue({ personId, tokenHash, expiresAt, reset }, now) {
      return transaction(pool, async (client) => {
        // The person's row is locked first, so two links issued at once for one person leave only the later one.
        await client.query('SELECT 1 FROM people WHERE id = $1 FOR UPDATE', [personId]);
        await run(client, passwordLinkSql.forget, { personId });
        await run(client, passwordLinkSql.insert, { tokenHash, personId, createdAt: now.toISOString(), expiresAt: expiresAt.toISOString() });
        if (!reset) return { sessionsEnded: 0 };
        await run(client, passwordLinkSql.setPassword, { personId, passwordHash: null });
        return { sessionsEnded: await changed(client, passwordLinkSql.endSessions, { personId }) };
      });
    },
    find(tokenHash, now) {
      return stateOf(pool, passwordLinkSql.byHash, tokenHash, now);
    },
    // Checked and spent in one transaction with the link's row locked: only one of two forms sent at once sets a
    // password.
    use(tokenHash, passwordHash, now) {
      return transaction(pool, async (client) => {
        const state = await stateOf(client, passwordLinkSql.lockedByHash, tokenHash, now);
        if (state.kind !== 'valid') return state;
        await run(client, passwordLinkSql.spend, { tokenHash, at: now.toISOString() });
        await run(client, passwordLinkSql.setPassword, { personId: state.person.id, passwordHash });
        await run(client, passwordLinkSql.endSessions, { personId: state.person.id });
        return state;
      });
    },
  };
}
