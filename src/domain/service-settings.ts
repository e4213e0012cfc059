/** Who may make an account: anyone, only whom someone invited, or only the operator. */
export const SIGNUP_MODES = ['open', 'invite', 'closed'] as const;

/**
 * - `open`: anyone may sign up (the spec's public service).
 * - `invite`: only an email with a standing team invitation, or with an operator's sign-up link, may make an account.
 * - `closed`: no one signs up; the operator makes accounts (`shortlinks person add`).
 */
export type SignupMode = (typeof SIGNUP_MODES)[number];

/** Where links may point: the public web only, or the team's private network too. */
export const DESTINATION_MODES = ['public', 'private'] as const;

/**
 * - `public`: the spec's destination rules as written (https, public host names only).
 * - `private`: also `http:`, IP addresses and private-network names (`http://wiki/`, `https://git.corp.internal/`),
 *   for go-links to an intranet; the rules on the service's own links, shorteners, the blocklist and unsafe sites hold.
 */
export type DestinationMode = (typeof DESTINATION_MODES)[number];

/**
 * The operator's choices of how the service runs (kept in the database beside the limits, changed with
 * `shortlinks settings set`): one field per setting, each with a flag of its own.
 */
export interface ServiceSettings {
  signup: SignupMode;
  destinations: DestinationMode;
}

/** A fresh installation runs as the spec's public service. */
export const DEFAULT_SERVICE_SETTINGS: ServiceSettings = Object.freeze({ signup: 'open', destinations: 'public' });
