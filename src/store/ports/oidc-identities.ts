/**
 * Who a person is at the single sign-on provider: the provider's `iss` and `sub`, stable for the person there (an
 * email is not: it can change at the provider, and another person can get it later). Found first at sign-in, so an
 * account stays its person's whatever their email becomes.
 */
export interface OidcIdentityStore {
  /** The id of the person linked to this provider's subject, or null. */
  personOf(issuer: string, subject: string): Promise<string | null>;
  /** Links the subject to the person; false (changing nothing) when the subject was linked already. */
  link(input: { issuer: string; subject: string; personId: string }, now: Date): Promise<boolean>;
}
