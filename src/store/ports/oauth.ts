/** An application assistants sign in through: registered (RFC 7591) or known by its metadata document's URL. */
export interface OAuthClient {
  /** `oc_…` for a registered client; the https URL of its metadata document otherwise. */
  id: string;
  kind: 'registered' | 'metadata_document';
  /** SHA-256 of the client secret of a confidential registered client; null for public clients. */
  secretHash: Buffer | null;
  /** The name the client gave itself (unverified), or null. */
  name: string | null;
  redirectUris: string[];
  /** The client's metadata as registered or fetched, as answered by /register. */
  metadata: Record<string, unknown>;
  createdAt: string;
  /** A metadata document's fetched copy serves until then; null for registered clients. */
  freshUntil: string | null;
}

/** What a person allowed one client (a connected assistant), with what the assistants page shows. */
export interface OAuthGrant {
  id: string;
  personId: string;
  clientId: string;
  clientName: string | null;
  redirectUris: string[];
  scopes: string[];
  createdAt: string;
  lastUsedAt: string | null;
}

export interface NewAuthorizationCode {
  codeHash: Buffer;
  personId: string;
  clientId: string;
  scopes: string[];
  redirectUri: string;
  /** The S256 PKCE challenge. */
  codeChallenge: string;
  resource: string;
  expiresAt: string;
}

export interface AuthorizationCodeRecord extends NewAuthorizationCode {
  grantId: string;
  usedAt: string | null;
}

export interface NewOAuthTokens {
  grantId: string;
  /** Tokens descending from one authorization code share a family; a replay revokes the whole family. */
  family: string;
  scopes: string[];
  resource: string;
  accessHash: Buffer;
  accessExpiresAt: string;
  refreshHash: Buffer | null;
  refreshExpiresAt: string | null;
}

export interface OAuthTokenRecord {
  kind: 'access' | 'refresh';
  grantId: string;
  family: string;
  personId: string;
  clientId: string;
  scopes: string[];
  resource: string;
  expiresAt: string;
  /** Refresh tokens: when it was exchanged (rotated); a second exchange is a replay. */
  usedAt: string | null;
  personAgreedTerms: boolean;
}

/** OAuth for assistants. Codes, tokens and client secrets are stored only as SHA-256 hashes. */
export interface OAuthStore {
  addClient(client: Omit<OAuthClient, 'createdAt' | 'kind' | 'freshUntil'>, now: Date): Promise<OAuthClient>;
  /** Keeps a fetched metadata document (replacing an older copy); done when a person approves the client. */
  saveMetadataDocument(client: Omit<OAuthClient, 'createdAt' | 'kind' | 'secretHash'>, now: Date): Promise<OAuthClient>;
  client(id: string): Promise<OAuthClient | null>;
  /**
   * Forgets clients no person has a grant with: registered ones made before `registeredBefore`, and metadata
   * documents past their freshness (stored ones were approved once and disconnected since). Returns how many went.
   */
  purgeClients(registeredBefore: Date, now: Date): Promise<number>;
  /**
   * Records the person's approval (one grant per person and client, its scopes replaced) and the code. When the
   * grant existed, its token families and unused codes holding a scope the new approval does not name are
   * deleted: approving again with narrower scopes narrows what the client holds at once.
   */
  saveCode(code: NewAuthorizationCode, now: Date): Promise<string>;
  code(codeHash: Buffer): Promise<AuthorizationCodeRecord | null>;
  /** Marks the code used; false when it already was (or is gone). */
  useCode(codeHash: Buffer, now: Date): Promise<boolean>;
  saveTokens(tokens: NewOAuthTokens, now: Date): Promise<void>;
  token(tokenHash: Buffer): Promise<OAuthTokenRecord | null>;
  /** Marks a refresh token exchanged; false when it already was (or is gone). */
  useRefreshToken(tokenHash: Buffer, now: Date): Promise<boolean>;
  /** Deletes every token of the family. */
  revokeFamily(family: string): Promise<void>;
  /** The person's connected assistants, most recently allowed first. */
  grants(personId: string): Promise<OAuthGrant[]>;
  /** Deletes the person's grant with its codes and tokens; false when there was none. */
  revokeGrant(personId: string, grantId: string): Promise<boolean>;
  /** Records use (written at most once a minute per grant; never fails the call). */
  touchGrant(grantId: string, now: Date): Promise<void>;
}
