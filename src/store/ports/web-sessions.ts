export interface WebSession {
  personId: string;
  /** The session's secret for CSRF tokens. */
  csrfSecret: string;
  expiresAt: string;
}

/** Signed-in browser sessions. The cookie's value is never stored: only its SHA-256. */
export interface WebSessionStore {
  add(idHash: Buffer, session: WebSession, now: Date): Promise<void>;
  /** The session, unless it expired. */
  find(idHash: Buffer, now: Date): Promise<WebSession | null>;
  remove(idHash: Buffer): Promise<void>;
}
