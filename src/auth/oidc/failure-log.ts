import type { Logger } from '../../observability/logger.js';

/** How often at most one reason is told again: a provider that is down fails every sign-in, not once. */
const FAILURE_LOG_MS = 60_000;

// The most characters of a reason told: a provider's own error code, or its list of methods, is quoted in it.
const REASON_MAX = 200;

/**
 * Tells the operator, as a warning in the service's log, why single sign-on with the provider failed: the step
 * (discovery, the token exchange) and the reason (reasonOf). The visitor sees only a 503 or 400 page. Each reason is
 * told at most once a minute, the next line counting those left out since, so a flood of sign-ins against a
 * provider that is down writes a line a minute, not one a visitor. Reasons are error classes and codes, never what
 * a visitor sent, so there are few and the map of when each was told stays small.
 */
export function failureLog(deps: { issuer: string; log: () => Logger; now: () => number }) {
  const told = new Map<string, { at: number; leftOut: number }>();
  return (step: string, reason: string): void => {
    const said = reason.length > REASON_MAX ? `${reason.slice(0, REASON_MAX)}…` : reason;
    const key = `${step}\n${said}`;
    const now = deps.now();
    const last = told.get(key);
    if (last !== undefined && now - last.at < FAILURE_LOG_MS) {
      last.leftOut += 1;
      return;
    }
    const leftOut = last?.leftOut ?? 0;
    told.set(key, { at: now, leftOut: 0 });
    const more = leftOut > 0 ? ` (and ${leftOut} more since the last line)` : '';
    deps.log().warn({ issuer: deps.issuer, step, reason: said, leftOut }, `Single sign-on with ${deps.issuer} failed at ${step}: ${said}${more}`);
  };
}

/**
 * What went wrong, as the operator can look it up: each error of the cause chain by class, code, the provider's
 * OAuth `error` (from the answer's body or its WWW-Authenticate challenge) and HTTP status (`TypeError, caused by
 * Error ECONNREFUSED`; `WWWAuthenticateChallengeError OAUTH_WWW_AUTHENTICATE_CHALLENGE invalid_client (HTTP 401)`),
 * and the words of openid-client's own errors (an `OAUTH_` code), which name a parameter or claim, never its value.
 * No other message: a request's own words may carry its URL, and with it the code.
 */
export function reasonOf(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error; e instanceof Error && parts.length < 4; e = e.cause) {
    const { code, status } = e as { code?: unknown; status?: unknown };
    const oauthError = oauthErrorOf(e);
    let part = e.name;
    if (typeof code === 'string') part += ` ${code}`;
    if (oauthError !== undefined) part += ` ${oauthError}`;
    if (typeof status === 'number') part += ` (HTTP ${status})`;
    if (typeof code === 'string' && code.startsWith('OAUTH_') && oauthError === undefined) part += `: ${e.message}`;
    parts.push(part);
  }
  return parts.length > 0 ? parts.join(', caused by ') : 'an unknown failure';
}

/** The OAuth `error` the provider answered: in the body (ResponseBodyError), or its challenge's (WWWAuthenticateChallengeError). */
function oauthErrorOf(error: Error): string | undefined {
  const { error: inBody, cause } = error as { error?: unknown; cause?: unknown };
  if (typeof inBody === 'string') return inBody;
  const challenged = Array.isArray(cause) ? (cause[0] as { parameters?: { error?: unknown } } | undefined)?.parameters?.error : undefined;
  return typeof challenged === 'string' ? challenged : undefined;
}
