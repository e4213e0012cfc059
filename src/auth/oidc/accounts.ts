import { emailOrNull } from '../../domain/account-rules.js';
import { EmailTaken, type Person, type Store } from '../../store/ports.js';
import type { ProviderIdentity } from './provider.js';

/** Whom a single sign-on signs in, or why no one. */
export type SsoOutcome = { kind: 'person'; person: Person; made: boolean } | { kind: 'refused'; reason: string };

/**
 * The account the provider's identity signs in to. First the person linked to its subject (so a changed email at
 * the provider keeps the account); else, only when the provider verified the email, the account with that email
 * (linked from now on) or a new account without a password when the email's domain is allowed (`allowedDomains`,
 * empty: any). An email the provider did not verify matches and makes nothing: whoever typed it there may not own
 * it. Makes accounts whatever the sign-up mode: the provider, and OIDC_ALLOWED_DOMAINS, say who may come in.
 */
export async function ssoAccount(
  store: Store,
  identity: ProviderIdentity,
  options: { providerName: string; allowedDomains: readonly string[]; now: Date },
): Promise<SsoOutcome> {
  const { issuer, subject } = identity;
  const linked = await store.oidcIdentities.personOf(issuer, subject);
  const person = linked === null ? null : await store.people.get(linked);
  if (person !== null) return { kind: 'person', person, made: false };

  const email = emailOrNull(identity.email ?? '');
  if (email === null) return { kind: 'refused', reason: `${options.providerName} did not share an email address, so no account here can be yours.` };
  if (!identity.emailVerified) {
    return { kind: 'refused', reason: `${options.providerName} has not verified your email address ${email}. Verify it there, then try again.` };
  }
  const link = async (found: Person) => {
    await store.oidcIdentities.link({ issuer, subject, personId: found.id }, options.now);
    return { kind: 'person' as const, person: found, made: false };
  };
  const existing = await store.people.findByEmail(email);
  if (existing !== null) return link(existing);

  const domain = email.slice(email.lastIndexOf('@') + 1);
  if (options.allowedDomains.length > 0 && !options.allowedDomains.includes(domain)) {
    return { kind: 'refused', reason: `Accounts here are made only for addresses at ${options.allowedDomains.join(', ')}. No account was made.` };
  }
  let made: Person;
  try {
    made = await store.people.add({ email, passwordHash: null, agreedTerms: false }, options.now);
  } catch (error) {
    // Another sign-in (or sign-up) made the account between the look-up and now: it is this email's, so link it.
    if (!(error instanceof EmailTaken)) throw error;
    const raced = await store.people.findByEmail(email);
    if (raced === null) throw error;
    return link(raced);
  }
  await store.oidcIdentities.link({ issuer, subject, personId: made.id }, options.now);
  return { kind: 'person', person: made, made: true };
}
