import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { newId } from '../domain/ids.js';
import { hasHiddenCharacters } from '../domain/hidden-characters.js';
import type { RateLimiter } from '../support/rate-limiter.js';
import type { Random } from '../domain/random.js';
import type { OAuthStore } from '../store/ports.js';
import type { Clock } from '../shared/clock.js';
import { onlyMethods, openCors, sendOAuthError } from './http.js';
import { redirectUriProblem } from './redirect-uris.js';
import { CLIENT_SECRET_PREFIX, newSecret, sha256 } from '../auth/secrets.js';
import { REGISTRATIONS_PER_HOUR, UNUSED_CLIENT_MS } from './lifetimes-and-limits.js';
import { setRetryAfter } from '../http/retry-after.js';
import { count } from '../shared/words.js';

const AUTH_METHODS = ['none', 'client_secret_post', 'client_secret_basic'];
const GRANT_TYPES = ['authorization_code', 'refresh_token'];
/** Optional string fields kept and echoed as registered. */
const ECHOED = ['client_uri', 'logo_uri', 'scope', 'software_id', 'software_version', 'application_type', 'tos_uri', 'policy_uri'];
const HOUR_MS = 3_600_000;

class InvalidMetadata extends Error {
  constructor(readonly error: 'invalid_redirect_uri' | 'invalid_client_metadata', description: string) {
    super(description);
  }
}

/** The registered metadata (RFC 7591 §2) from a request body, checked; defaults fill what is left out. */
function checkMetadata(body: unknown): Record<string, unknown> & { redirect_uris: string[]; token_endpoint_auth_method: string } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new InvalidMetadata('invalid_client_metadata', 'Send the client metadata as a JSON object.');
  }
  const input = body as Record<string, unknown>;
  const uris = input.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0 || uris.length > 20) {
    throw new InvalidMetadata('invalid_redirect_uri', 'redirect_uris must list 1 to 20 redirect URIs.');
  }
  for (const uri of uris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw new InvalidMetadata('invalid_redirect_uri', problem);
  }
  const method = input.token_endpoint_auth_method ?? 'none';
  if (typeof method !== 'string' || !AUTH_METHODS.includes(method)) {
    throw new InvalidMetadata('invalid_client_metadata', `token_endpoint_auth_method must be one of ${AUTH_METHODS.join(', ')}.`);
  }
  const grants = input.grant_types ?? GRANT_TYPES;
  if (!Array.isArray(grants) || !grants.includes('authorization_code') || grants.some((g) => !GRANT_TYPES.includes(g as string))) {
    throw new InvalidMetadata('invalid_client_metadata', 'grant_types must include authorization_code and may add refresh_token.');
  }
  const responseTypes = input.response_types ?? ['code'];
  if (!Array.isArray(responseTypes) || responseTypes.length !== 1 || responseTypes[0] !== 'code') {
    throw new InvalidMetadata('invalid_client_metadata', 'response_types must be ["code"].');
  }
  const name = input.client_name;
  if (name !== undefined && (typeof name !== 'string' || name.length > 200)) {
    throw new InvalidMetadata('invalid_client_metadata', 'client_name must be a string of at most 200 characters.');
  }
  // The consent and assistants pages show the name: it must not hide or reorder what a person reads there.
  if (typeof name === 'string' && hasHiddenCharacters(name.trim())) {
    throw new InvalidMetadata('invalid_client_metadata', 'client_name must not contain control or bidirectional formatting characters.');
  }
  const metadata: Record<string, unknown> = {
    redirect_uris: uris,
    token_endpoint_auth_method: method,
    grant_types: grants,
    response_types: responseTypes,
  };
  if (typeof name === 'string' && name.trim() !== '') metadata.client_name = name.trim().slice(0, 100);
  for (const key of ECHOED) if (typeof input[key] === 'string') metadata[key] = input[key];
  return metadata as ReturnType<typeof checkMetadata>;
}

/**
 * `POST /register`: dynamic client registration (RFC 7591). Public clients (`none`, the default) get no secret;
 * confidential ones get a secret shown once and kept as its SHA-256. Registrations are limited per client address
 * and an hour, and those nobody approved within a day are forgotten (every new registration sweeps them).
 */
export function registerRoutes(
  app: Express,
  deps: { store: OAuthStore; clock: Clock; random: Random; addressKey: (req: Request) => string; rates: RateLimiter },
): void {
  const { store, clock, random } = deps;

  async function register(req: Request, res: Response): Promise<void> {
    res.set('Cache-Control', 'no-store').set('Pragma', 'no-cache');
    const now = clock.now();
    // Registrations per client address in any hour, on the service's clock.
    const taken = await deps.rates.take(`registrations:${deps.addressKey(req)}`, REGISTRATIONS_PER_HOUR, HOUR_MS, now.getTime());
    const wait = taken.resetSeconds;
    if (!taken.allowed) {
      setRetryAfter(res, wait);
      return sendOAuthError(res, 429, 'too_many_requests', `Too many registrations from this address; retry in ${count(wait, 'second')}.`);
    }
    let metadata: ReturnType<typeof checkMetadata>;
    try {
      metadata = checkMetadata(req.body);
    } catch (error) {
      if (error instanceof InvalidMetadata) return sendOAuthError(res, 400, error.error, error.message);
      throw error;
    }
    await store.purgeClients(new Date(now.getTime() - UNUSED_CLIENT_MS), now);
    const secret = metadata.token_endpoint_auth_method === 'none' ? null : newSecret(random, CLIENT_SECRET_PREFIX);
    const id = newId('oc', random);
    const answer: Record<string, unknown> = { client_id: id, client_id_issued_at: Math.floor(now.getTime() / 1000), ...metadata };
    if (secret) Object.assign(answer, { client_secret: secret, client_secret_expires_at: 0 });
    const name = typeof metadata.client_name === 'string' ? metadata.client_name : null;
    await store.addClient({ id, secretHash: secret ? sha256(secret) : null, name, redirectUris: metadata.redirect_uris, metadata }, now);
    res.status(201).json(answer);
  }

  app.use('/register', openCors('POST'));
  app.post('/register', express.json({ limit: '16kb' }), register);
  app.all('/register', onlyMethods('POST'));
  // A body that is not JSON (400), or too large (413, as every body over its cap: RFC 7591 names no status for it,
  // and a client reads the error object whatever the status).
  app.use('/register', (error: Error & { status?: number }, _req: Request, res: Response, next: NextFunction) => {
    if (error.status === 400 || error.status === 413) return sendOAuthError(res, error.status, 'invalid_client_metadata', 'The body must be a JSON object of at most 16 KiB.');
    next(error);
  });
}
