import type { PasswordLinkState, PasswordLinkStore } from '../ports.js';
import { passwordLinkState, type StoredPasswordLink } from '../password-link-state.js';
import { writeTransaction, type Db } from './database.js';
import { PERSON_COLUMNS, personOf } from './people.js';


export function sqlitePasswordLinks(db: Db): PasswordLinkStore {
  // A person has at most one link: a new one replaces the old, so a link handed out earlier stops working.
  const forget = db.prepare('DELETE FROM password_links WHERE person_id = ?');
  const insert = db.prepare(
    'INSERT INTO password_links (token_hash, person_id, created_at, expires_at, used_at) VALUES (?, ?, ?, ?, NULL)',
  );
  const clearPassword = db.prepare('UPDATE people SET password_hash = NULL WHERE id = ?');
  const endSessions = db.prepare('DELETE FROM web_sessions WHERE person_id = ?');
  const byHash = db.prepare(
    `SELECT ${PERSON_COLUMNS}, l.expires_at AS expiresAt, l.used_at AS usedAt
     FROM password_links l JOIN people p ON p.id = l.person_id WHERE l.token_hash = ?`,
  );
  const spend = db.prepare('UPDATE password_links SET used_at = ? WHERE token_hash = ? AND used_at IS NULL');
  const setPassword = db.prepare('UPDATE people SET password_hash = ? WHERE id = ?');

  function stateOf(tokenHash: Buffer, now: Date): PasswordLinkState {
    const row = byHash.get(tokenHash) as (StoredPasswordLink & { operator: number }) | undefined;
    return passwordLinkState(row && personOf(row), now);
  }

  const issue = writeTransaction(
    db,
    (personId: string, tokenHash: Buffer, expiresAt: Date, reset: boolean, now: Date): { sessionsEnded: number } => {
      forget.run(personId);
      insert.run(tokenHash, personId, now.toISOString(), expiresAt.toISOString());
      if (!reset) return { sessionsEnded: 0 };
      clearPassword.run(personId);
      return { sessionsEnded: endSessions.run(personId).changes };
    },
  );

  // Checked and spent in one write transaction, so two forms sent at once cannot both set a password.
  const use = writeTransaction(db, (tokenHash: Buffer, passwordHash: string, now: Date): PasswordLinkState => {
    const state = stateOf(tokenHash, now);
    if (state.kind !== 'valid') return state;
    spend.run(now.toISOString(), tokenHash);
    setPassword.run(passwordHash, state.person.id);
    // A new password ends every session that was started with the old one (or by whoever knew it).
    endSessions.run(state.person.id);
    return state;
  });

  return {
    async issue({ personId, tokenHash, expiresAt, reset }, now) {
      return issue(personId, tokenHash, expiresAt, reset, now);
    },
    async find(tokenHash, now) {
      return stateOf(tokenHash, now);
    },
    async use(tokenHash, passwordHash, now) {
      return use(tokenHash, passwordHash, now);
    },
  };
}
