/** Lifetimes and limits of the authorization server (documented in docs/behaviour.md, "Assistants sign in"). */
export const CODE_LIFETIME_S = 5 * 60;
export const ACCESS_TOKEN_LIFETIME_S = 60 * 60;
export const REFRESH_TOKEN_LIFETIME_S = 30 * 24 * 60 * 60;
/** A registration nobody approved within this time is forgotten. */
export const UNUSED_CLIENT_MS = 24 * 60 * 60 * 1000;
/** Registrations per client address per hour. */
export const REGISTRATIONS_PER_HOUR = 60;
/**
 * Client ID metadata document fetches, each a minute unless named otherwise (see fetch-allowances.ts). Every fetch
 * counts for the requesting client's network: an IPv4 address, or an IPv6 /48 (a site's usual allocation, so
 * stepping through its /56s and /64s gains nothing). Then, by what is known of the client_id before fetching:
 * - known (a person approved it here, or its document was valid within KNOWN_DOCUMENT_MS): an allowance of its
 *   own, which failures cannot use up;
 * - new: the allowance of new clients, and at most a few fetches of its host;
 * - on a failing host (a fetch there failed within FAILING_HOST_MS, and none served a valid document within
 *   KNOWN_DOCUMENT_MS): a smaller allowance, and fewer fetches of each such host.
 * Using up the new allowance takes 30 networks and at least 60 hosts that have not failed yet; 600 a minute is 10
 * fetches a second, and a host is fetched at most 10 times a minute for client_ids not known: no weapon against it.
 */
export const DOCUMENT_FETCHES_PER_NETWORK_PER_MINUTE = 20;
export const KNOWN_DOCUMENT_FETCHES_PER_MINUTE = 600;
export const NEW_DOCUMENT_FETCHES_PER_MINUTE = 600;
export const NEW_DOCUMENT_FETCHES_PER_HOST_PER_MINUTE = 10;
export const FAILING_HOST_FETCHES_PER_MINUTE = 60;
export const FAILING_HOST_FETCHES_PER_HOST_PER_MINUTE = 2;
/** How long a host counts as failing after a fetch there failed. */
export const FAILING_HOST_MS = 10 * 60_000;
/** How long a client_id (and its host) counts as known after its document was valid. */
export const KNOWN_DOCUMENT_MS = 60 * 60_000;
/**
 * A document that could not be fetched or was refused is answered from memory this long; so is every client_id on a
 * host that could not be reached (no address, a private one, no connection, too slow).
 */
export const DOCUMENT_FAILURE_MEMORY_MS = 60_000;
/** Fetched documents of clients nobody approved are kept in memory only, at most this many. */
export const DOCUMENTS_IN_MEMORY = 500;
