/** One of a person's sessions as their Account page lists it. */
export interface PersonSession {
  idHash: Buffer;
  createdAt: string;
  expiresAt: string;
}

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
  /** The person's sessions that have not expired, newest first. */
  ofPerson(personId: string, now: Date): Promise<PersonSession[]>;
  /** Ends one of the person's sessions; false when they have no such session (another person's is left alone). */
  removeOfPerson(personId: string, idHash: Buffer): Promise<boolean>;
  /** Ends every session of the person but `keep`; answers how many ended. */
  removeOthers(personId: string, keep: Buffer): Promise<number>;
}
