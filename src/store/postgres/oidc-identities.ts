import type { OidcIdentityStore } from '../ports.js';
import { oidcIdentitySql } from '../sql/oidc-identities.js';
import type { PgPool } from './database.js';
import { changed, row } from './query.js';

export function pgOidcIdentities(pool: PgPool): OidcIdentityStore {
  return {
    async personOf(issuer, subject) {
      return (await row(pool, oidcIdentitySql.personOf, { issuer, subject }))?.personId ?? null;
    },
    async link({ issuer, subject, personId }, now) {
      return (await changed(pool, oidcIdentitySql.link, { issuer, subject, personId, createdAt: now.toISOString() })) > 0;
    },
  };
}
