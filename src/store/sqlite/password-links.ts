import type { PasswordLinkState, PasswordLinkStore } from '../ports.js';
import { passwordLinkState } from '../password-link-state.js';
import { passwordLinkSql } from '../sql/password-links.js';
import { personOf } from '../sql/people.js';
import { writeTransaction, type Db } from './database.js';
import { prepareAll } from './prepare.js';

export function sqlitePasswordLinks(db: Db): PasswordLinkStore {
  const s = prepareAll(db, passwordLinkSql);

  function stateOf(tokenHash: Buffer, now: Date): PasswordLinkState {
    const row = s.byHash.get({ tokenHash });
    return passwordLinkState(row && personOf(row), now);
  }

  const issue = writeTransaction(
    db,
    (personId: string, tokenHash: Buffer, expiresAt: Date, reset: boolean, now: Date): { sessionsEnded: number } => {
      s.forget.run({ personId });
      s.insert.run({ tokenHash, personId, createdAt: now.toISOString(), expiresAt: expiresAt.toISOString() });
      if (!reset) return { sessionsEnded: 0 };
      s.setPassword.run({ personId, passwordHash: null });
      return { sessionsEnded: s.endSessions.run({ personId }).changes };
    },
  );

  // Checked and spent in one write transaction, so two forms sent at once cannot both set a password.
  const use = writeTransaction(db, (tokenHash: Buffer, passwordHash: string, now: Date): PasswordLinkState => {
    const state = stateOf(tokenHash, now);
    if (state.kind !== 'valid') return state;
    s.spend.run({ tokenHash, at: now.toISOString() });
    s.setPassword.run({ personId: state.person.id, passwordHash });
    s.endSessions.run({ personId: state.person.id });
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
