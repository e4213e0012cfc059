import type { OidcIdentityStore } from '../ports.js';
import { oidcIdentitySql } from '../sql/oidc-identities.js';
import type { Db } from './database.js';
import { prepareAll } from './prepare.js';

export function sqliteOidcIdentities(db: Db): OidcIdentityStore {
  const s = prepareAll(db, oidcIdentitySql);
  return {
    async personOf(issuer, subject) {
      return s.personOf.get({ issuer, subject })?.personId ?? null;
    },
    async link({ issuer, subject, personId }, now) {
      return s.link.run({ issuer, subject, personId, createdAt: now.toISOString() }).changes > 0;
    },
  };
}
