/**
 * The one error type of the service. Every rule that fails throws an ApiError; each surface renders it in one
 * place (problem+json for HTTP, an isError tool result for MCP, a message beside the field for the web app).
 */
import {
  MAX_CLICKS_CAP_TEXT,
  MAX_DESTINATION_LENGTH_TEXT,
  MAX_EXPIRY_YEARS,
  MAX_NAME_LENGTH,
  MIN_NAME_LENGTH,
  NOTE_MAX,
  PASSWORD_MAX,
  PASSWORD_MIN,
  TAG_MAX_LENGTH,
  TAGS_MAX,
} from './shared/field-lengths.js';

/**
 * Every error code of the spec (section 7), with its HTTP status and a default sentence for a person; then the
 * codes of the service's additions to v1 (link options and custom domains: docs/behaviour.md).
 */
const catalogue = {
  blocked_destination: [400, 'The service does not allow links to that site.'],
  check_unavailable: [503, 'The address could not be checked right now; retry in a minute.'],
  invalid_destination: [400, `The destination must be an https address of at most ${MAX_DESTINATION_LENGTH_TEXT} characters.`],
  invalid_name: [400, `A short link name is ${MIN_NAME_LENGTH} to ${MAX_NAME_LENGTH} characters of lowercase letters, digits, "-" and "_".`],
  invalid_note: [400, `A note is at most ${NOTE_MAX} characters of letters, numbers, spaces and - _ , . ' ( ) & ! ? :`],
  limit_reached: [429, 'A creation or change limit was hit.'],
  link_disabled: [409, 'The link was disabled by the service and cannot be changed.'],
  link_flagged: [409, 'The destination cannot change while the link is flagged; ask for a review.'],
  name_taken: [409, 'That short link name is taken.'],
  private_destination: [400, 'The destination is an IP address or on a private network.'],
  reserved_name: [400, 'That short link name is reserved.'],
  shortener_destination: [400, 'The destination is a link of this service or of another link shortener.'],
  team_full: [409, 'The team already holds as many links as it may.'],
  unsafe_destination: [400, 'The destination is on a list of unsafe sites.'],
  invalid_expiry: [400, `expiresAt must be a date-time in the future, at most ${MAX_EXPIRY_YEARS} years ahead.`],
  invalid_max_clicks: [400, `maxClicks must be a whole number from 1 to ${MAX_CLICKS_CAP_TEXT}.`],
  invalid_password: [400, `A link's password is ${PASSWORD_MIN} to ${PASSWORD_MAX} characters.`],
  invalid_tag: [400, `A link has at most ${TAGS_MAX} tags, each 1 to ${TAG_MAX_LENGTH} characters of lowercase letters, digits, "-" and "_".`],
  invalid_domain: [400, 'A domain is a host name such as go.example.com, without a scheme or a path.'],
  domain_refused: [400, "That domain is this service's own, another link shortener's, or blocked."],
  domain_taken: [409, 'That domain belongs to a team already.'],
  team_domains_full: [409, 'The team already holds as many domains as it may.'],
  team_webhooks_full: [409, 'The team already has as many webhook endpoints as it may.'],
  invalid_import: [400, 'The file cannot be read in the format chosen: it needs a header naming a destination column.'],
  invalid_token: [401, 'The token is unknown, revoked or expired.'],
  insufficient_scope: [403, 'The token is limited to other operations.'],
  outside_token_record: [403, 'The token works within one team and this call reaches outside it.'],
  first_step: [403, 'The person has not taken the first step in the app yet.'],
  token_record_left: [403, "The token's person no longer belongs to the token's team."],
  rate_limited: [429, 'Too many calls; wait the seconds in Retry-After.'],
  idempotency_key_in_use: [409, 'A call with this Idempotency-Key is still running; retry in a second.'],
  idempotency_key_reused: [422, 'This Idempotency-Key was used before with another body.'],
  cursor_mismatch: [400, 'The cursor comes from another operation or other params.'],
  version_retired: [410, 'This version of the interface was retired; move to /v1.'],
  bad_request: [400, 'The request is malformed.'],
  unauthorized: [401, 'Sign-in is required.'],
  payment_required: [402, 'Payment is required.'],
  forbidden: [403, 'This is not allowed.'],
  not_found: [404, 'Not found.'],
  method_not_allowed: [405, 'This method is not allowed here.'],
  conflict: [409, 'The request conflicts with the current state.'],
  gone: [410, 'Gone.'],
  content_too_large: [413, 'The body is too large.'],
  unprocessable_content: [422, 'The request could not be processed.'],
  too_many_requests: [429, 'Too many requests.'],
  internal_server_error: [500, 'Something went wrong on our side.'],
  service_unavailable: [503, 'The service is unavailable; retry later.'],
} as const satisfies Record<string, readonly [number, string]>;

export type ErrorCode = keyof typeof catalogue;

/** The spec's problem body (RFC 9457), as every surface shows it. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  code: ErrorCode;
  detail: string;
  field: string | null;
}

export class ApiError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    detail?: string,
    /** The param at fault, in the spec's notation (`links[3].name`), or null. */
    readonly field: string | null = null,
    /** Seconds a caller should wait before retrying (429 and 503 answers). */
    readonly retryAfter?: number,
  ) {
    super(detail ?? catalogue[code][1]);
    this.status = catalogue[code][0];
  }

  get detail(): string {
    return this.message;
  }

  /** The problem body; `type` points at the error's entry in the service's own docs (`PUBLIC_URL/docs/errors`). */
  toProblem(publicUrl: string): Problem {
    return {
      type: `${publicUrl}/docs/errors#${this.code}`,
      title: titleOf(this.code),
      status: this.status,
      code: this.code,
      detail: this.message,
      field: this.field,
    };
  }
}

/** Every code with its status, for the OpenAPI document. */
export function errorCatalogue(): Array<{ code: ErrorCode; status: number; detail: string }> {
  return (Object.keys(catalogue) as ErrorCode[]).map((code) => ({
    code,
    status: catalogue[code][0],
    detail: catalogue[code][1],
  }));
}

export function statusOf(code: ErrorCode): number {
  return catalogue[code][0];
}

function titleOf(code: ErrorCode): string {
  const words = code.replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** `name_taken` → `nameTaken`. */
type CamelCase<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}` : S;

type ErrorConstructor = (detail?: string, field?: string | null, retryAfter?: number) => ApiError;

/**
 * One named constructor per code, made from the table above so that a code, its status and its default sentence
 * are written once: `throw apiError.nameTaken(undefined, 'name')`, `apiError.rateLimited(detail, null, 30)`.
 */
export const apiError = Object.freeze(
  Object.fromEntries(
    (Object.keys(catalogue) as ErrorCode[]).map((code) => [
      code.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase()),
      (detail?: string, field: string | null = null, retryAfter?: number) => new ApiError(code, detail, field, retryAfter),
    ]),
  ),
) as { readonly [C in ErrorCode as CamelCase<C>]: ErrorConstructor };

/** For `.catch`: null for a refusal (an ApiError), which the caller takes as "none"; anything else is rethrown. */
export function unlessApiError(error: unknown): null {
  if (error instanceof ApiError) return null;
  throw error;
}

/**
 * What a store adapter finds a thrown error to mean (each adapter's failures.ts knows its driver's codes and words):
 * the database out of reach ('outage': restarting, the network cut, too busy to connect), not answering in time
 * ('timeout': an outage that may be a slow statement of ours), or unable to store what it was given ('storage': a
 * full disk, a failing one). The error itself travels on unchanged, so the log keeps the driver's code, words and
 * stack; the service reads only this verdict.
 */
export type StoreFailure = 'outage' | 'timeout' | 'storage';

/** An adapter's reading of its driver's errors: what `error` means, or null for anything it does not know. */
export type FailureReader = (error: unknown) => StoreFailure | null;

/**
 * The readers of the adapters this process opened. Asked only when an error is classified (rare), not as a store
 * call passes, so the store's hot paths pay nothing for it. A Set: opening a second store of a kind adds nothing.
 */
const failureReaders = new Set<FailureReader>();

/**
 * Has storeFailureOf ask `read` from now on: each adapter calls it as it opens, with its failures.ts reader. This
 * module cannot import the adapters (they sit above it), so they come to it.
 */
export function readStoreFailuresWith(read: FailureReader): void {
  failureReaders.add(read);
}

/**
 * What an opened store's adapter finds `error` to mean; null for anything else thrown. Each reader knows only its
 * own driver's codes and words, which the other's never match, so their order does not matter.
 */
export function storeFailureOf(error: unknown): StoreFailure | null {
  for (const read of failureReaders) {
    const failure = read(error);
    if (failure !== null) return failure;
  }
  return null;
}

/**
 * Anything thrown that is not an ApiError is our fault: a 500 with no internals shown. Except the database out of
 * reach (restarting, the network cut, too busy to connect): that passes, so it is a 503 with a few seconds to wait;
 * and the database unable to store (isStorageFailure: a full disk), a 503 with a minute to wait.
 */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (isOutage(err)) return apiError.serviceUnavailable(OUTAGE, null, OUTAGE_RETRY_SECONDS);
  if (isStorageFailure(err)) return apiError.serviceUnavailable(STORAGE_FAILURE, null, STORAGE_RETRY_SECONDS);
  return apiError.internalServerError();
}

const STORAGE_FAILURE = 'The service cannot store anything right now; retry in a minute.';
/** A disk is freed by an operator, not in seconds: a minute keeps retries from adding load meanwhile. */
const STORAGE_RETRY_SECONDS = 60;

/** The database unable to store what it was given, whatever the request. Reads still work meanwhile; each such write answers 503. */
export function isStorageFailure(err: unknown): boolean {
  return storeFailureOf(err) === 'storage';
}

const OUTAGE = 'The database cannot be reached right now; retry in a few seconds.';
const OUTAGE_RETRY_SECONDS = 5;

/** The database out of reach rather than anything wrong with the request; every timeout (isTimeout) included. */
export function isOutage(err: unknown): boolean {
  const failure = storeFailureOf(err);
  return failure === 'outage' || failure === 'timeout';
}

/**
 * An outage that may be ours to mend rather than the database's: nothing answered in time, which a slow statement
 * (a plan gone wrong, a lock held too long) looks like as much as a frozen server. Logged as a fault, with its stack.
 */
export function isTimeout(err: unknown): boolean {
  return storeFailureOf(err) === 'timeout';
}
