export interface TokenRecord {
  id: string;
  personId: string;
  teamId: string;
  /** What the person called it, to tell their tokens apart (domain/account-rules.ts, tokenLabelOf); null: none. */
  label: string | null;
  /** Operation names the token may call; null for every operation. */
  scopes: string[] | null;
  /** Limited to its team's record. */
  limited: boolean;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
}

/** A token with what authentication needs to know about its person, read in one query. */
export interface TokenGrant extends TokenRecord {
  secretHash: Buffer;
  personAgreedTerms: boolean;
  personInTeam: boolean;
}

export interface TokenStore {
  /** `label` is checked by the caller; absent means none. */
  add(
    input: { personId: string; teamId: string; label?: string | null; scopes: string[] | null; limited: boolean; secretHash: Buffer },
    now: Date,
  ): Promise<TokenRecord>;
  grant(id: string): Promise<TokenGrant | null>;
  /** The person's tokens that are not revoked, newest first. */
  listForPerson(personId: string): Promise<TokenRecord[]>;
  revoke(id: string, now: Date): Promise<boolean>;
  /** Records use; cheap enough for every call (it is batched by the adapter, and never fails the call). */
  touch(id: string, now: Date): Promise<void>;
}
