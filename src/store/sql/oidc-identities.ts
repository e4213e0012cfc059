import { sql } from './statement.js';

type Identity = { issuer: string; subject: string };

/** People's identities at the single sign-on provider. */
export const oidcIdentitySql = {
  personOf: sql<Identity, { personId: string }>(
    'SELECT person_id AS "personId" FROM oidc_identities WHERE issuer = :issuer AND subject = :subject',
  ),
  /** The first link of a subject stands: a second sign-in racing the first links nothing. */
  link: sql<Identity & { personId: string; createdAt: string }>(
    `INSERT INTO oidc_identities (issuer, subject, person_id, created_at) VALUES (:issuer, :subject, :personId, :createdAt)
     ON CONFLICT (issuer, subject) DO NOTHING`,
  ),
};
