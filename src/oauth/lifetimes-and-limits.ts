/** Lifetimes and limits of the authorization server (documented in docs/behaviour.md, "Assistants sign in"). */
export const CODE_LIFETIME_S = 5 * 60;
export const ACCESS_TOKEN_LIFETIME_S = 60 * 60;
export const REFRESH_TOKEN_LIFETIME_S = 30 * 24 * 60 * 60;
/** A registration nobody approved within this time is forgotten. */
export const UNUSED_CLIENT_MS = 24 * 60 * 60 * 1000;
/** Registrations per client address per hour. */
export const REGISTRATIONS_PER_HOUR = 60;
/**
 * Client ID metadata documents: fetches a minute, per client address and in all; see `clients.ts`. Using up the sum
 * takes 30 addresses, and is 10 fetches a second: no weapon against any host.
 */
export const DOCUMENT_FETCHES_PER_ADDRESS_PER_MINUTE = 20;
export const DOCUMENT_FETCHES_PER_MINUTE = 600;
/** A document that could not be fetched or was refused is answered from memory this long. */
export const DOCUMENT_FAILURE_MEMORY_MS = 60_000;
/** Fetched documents of clients nobody approved are kept in memory only, at most this many. */
export const DOCUMENTS_IN_MEMORY = 500;
