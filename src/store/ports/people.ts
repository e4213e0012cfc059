export interface Person {
  id: string;
  email: string;
  agreedTermsAt: string | null;
  createdAt: string;
  /** An operator: sees the web app's moderation pages (`shortlinks person admin`). */
  operator: boolean;
}

/** PeopleStore.add: someone already has the email (also when two sign-ups race for it). */
export class EmailTaken extends Error {
  constructor(email: string) {
    super(`A person with the email ${email} already exists.`);
    this.name = 'EmailTaken';
  }
}

export interface PeopleStore {
  /**
   * `addedByOperator` (the CLI's `person add`) makes the person established at once (see ModerationStore).
   * Rejects with EmailTaken when the email is someone's already.
   */
  add(
    input: { email: string; passwordHash: string | null; agreedTerms: boolean; addedByOperator?: boolean },
    now: Date,
  ): Promise<Person>;
  get(id: string): Promise<Person | null>;
  findByEmail(email: string): Promise<Person | null>;
  /** The person and their password hash, for signing in; null when no one has that email. */
  withPasswordHash(email: string): Promise<{ person: Person; passwordHash: string | null } | null>;
  /** The first step: the person agrees to the terms (once; later calls change nothing). */
  agreeTerms(id: string, now: Date): Promise<void>;
  /** Makes the person an operator or not; false when they already were so (or no one has the id). */
  setOperator(id: string, operator: boolean): Promise<boolean>;
}
