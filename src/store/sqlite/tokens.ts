import type { TokenGrant, TokenStore } from '../ports.js';
import { newId } from '../../domain/ids.js';
import type { Random } from '../../domain/random.js';
import { grantOf, tokenOf, tokenSql } from '../sql/tokens.js';
import { batchedTouches } from '../token-touches.js';
import type { Db } from './database.js';
import { prepareAll } from './prepare.js';
import { cachedRead } from './read-cache.js';

/** How often last-used times are written: every call would turn each read into a write. */
const TOUCH_FLUSH_MS = 5_000;

export function sqliteTokens(db: Db, random: Random): TokenStore {
  const s = prepareAll(db, tokenSql);
  const touch = db.prepare('UPDATE tokens SET last_used_at = ? WHERE id = ?');
  const readGrant = (id: string): TokenGrant | null => {
    const row = s.grant.get({ id });
    return row ? grantOf(row) : null;
  };
  // Every API call reads its token's grant.
  const grant = cachedRead(db, 10_000, (id: string) => id, readGrant);
  // Times are written as text when flushed, not on every call. Busy past the timeout (the CLI holds a long
  // write): the batch waits for the next round.
  const touches = batchedTouches(
    db.transaction((batch: ReadonlyMap<string, Date>) => {
      for (const [id, at] of batch) touch.run(at.toISOString(), id);
    }),
    TOUCH_FLUSH_MS,
  );

  return {
    async add({ personId, teamId, label = null, scopes, limited, secretHash }, now) {
      const id = newId('tok', random);
      const at = now.toISOString();
      s.insert.run({ id, secretHash, personId, teamId, label, scopes: scopes && JSON.stringify(scopes), limited: limited ? 1 : 0, createdAt: at });
      return { id, personId, teamId, label, scopes, limited, createdAt: at, lastUsedAt: null, expiresAt: null, revokedAt: null };
    },
    async grant(id) {
      return grant(id);
    },
    async listForPerson(personId) {
      return s.forPerson.all({ personId }).map(tokenOf);
    },
    async revoke(id, now) {
      return s.revoke.run({ id, at: now.toISOString() }).changes > 0;
    },
    async touch(id, now) {
      touches.record(id, now);
    },
    close: () => touches.close(),
  } as TokenStore & { close(): Promise<void> };
}
