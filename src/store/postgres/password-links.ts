import type { PasswordLinkState, PasswordLinkStore } from '../ports.js';
import { passwordLinkState, type StoredPasswordLink } from '../password-link-state.js';
import type { PgPool } from './database.js';
import { changed, row, transaction, type Queryable } from './query.js';
import { PERSON_COLUMNS } from './rows.js';

const LINK = `SELECT ${PERSON_COLUMNS}, l.expires_at AS "expiresAt", l.used_at AS "usedAt"
  FROM password_links l JOIN people p ON p.id = l.person_id WHERE l.token_hash = $1`;

async function stateOf(db: Queryable, query: string, tokenHash: Buffer, now: Date): Promise<PasswordLinkState> {
  return passwordLinkState(await row<StoredPasswordLink>(db, query, [tokenHash]), now);
}

export function pgPasswordLinks(pool: PgPool): PasswordLinkStore {
  return {
    issue({ personId, tokenHash, expiresAt, reset }, now) {
      return transaction(pool, async (client) => {
        // The person's row is locked first, so two links issued at once for one person leave only the later one.
        await client.query('SELECT 1 FROM people WHERE id = $1 FOR UPDATE', [personId]);
        // A person has at most one link: a new one replaces the old, so a link handed out earlier stops working.
        await client.query('DELETE FROM password_links WHERE person_id = $1', [personId]);
        await client.query(
          'INSERT INTO password_links (token_hash, person_id, created_at, expires_at, used_at) VALUES ($1, $2, $3, $4, NULL)',
          [tokenHash, personId, now.toISOString(), expiresAt.toISOString()],
        );
        if (!reset) return { sessionsEnded: 0 };
        await client.query('UPDATE people SET password_hash = NULL WHERE id = $1', [personId]);
        return { sessionsEnded: await changed(client, 'DELETE FROM web_sessions WHERE person_id = $1', [personId]) };
      });
    },
    find(tokenHash, now) {
      return stateOf(pool, LINK, tokenHash, now);
    },
    // Checked and spent in one transaction with the link's row locked, so of two forms sent at once the second
    // waits and then finds the link used: only one sets a password.
    use(tokenHash, passwordHash, now) {
      return transaction(pool, async (client) => {
        const state = await stateOf(client, `${LINK} FOR UPDATE OF l`, tokenHash, now);
        if (state.kind !== 'valid') return state;
        await client.query('UPDATE password_links SET used_at = $1 WHERE token_hash = $2', [now.toISOString(), tokenHash]);
        await client.query('UPDATE people SET password_hash = $1 WHERE id = $2', [passwordHash, state.person.id]);
        // A new password ends every session that was started with the old one (or by whoever knew it).
        await client.query('DELETE FROM web_sessions WHERE person_id = $1', [state.person.id]);
        return state;
      });
    },
  };
}
