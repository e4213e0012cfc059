import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * The OAuth endpoints' error body (RFC 6749 §5.2, RFC 7591 §3.2.2, RFC 8707 §2): `{error, error_description}`,
 * never cached. `invalid_client` is a 401 so that clients register again (MCP clients do on a 401).
 */
export function sendOAuthError(res: Response, status: number, error: string, description: string): void {
  res.status(status).set('Cache-Control', 'no-store').set('Pragma', 'no-cache').json({ error, error_description: description });
}

/**
 * CORS for the endpoints browser-based clients call (metadata, /token, /register, /revoke). They take no
 * cookies, so any origin may read the answers. A preflight is answered here.
 */
export function openCors(methods: string): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    res.set('Access-Control-Allow-Origin', '*');
    res.set('Access-Control-Expose-Headers', 'WWW-Authenticate, Retry-After');
    if (req.method !== 'OPTIONS') return next();
    res.set('Access-Control-Allow-Methods', `${methods}, OPTIONS`);
    res.set('Access-Control-Allow-Headers', 'Authorization, Content-Type, MCP-Protocol-Version');
    res.set('Access-Control-Max-Age', '86400');
    res.status(204).end();
  };
}

/** Answers any method but `allowed` with 405 and `Allow`. */
export function onlyMethods(allowed: string): RequestHandler {
  return (_req: Request, res: Response) => {
    res.set('Allow', allowed);
    sendOAuthError(res, 405, 'invalid_request', `This endpoint answers ${allowed} only.`);
  };
}

/**
 * A request's parameters (query for GET, form body for POST) as single strings. A parameter sent twice is
 * refused (RFC 6749 §3.1), so it is reported in `repeated` rather than picked.
 */
export function paramsOf(source: unknown, names: readonly string[]): { values: Record<string, string | undefined>; repeated: string[] } {
  const record = (typeof source === 'object' && source !== null ? source : {}) as Record<string, unknown>;
  const values: Record<string, string | undefined> = {};
  const repeated: string[] = [];
  for (const name of names) {
    const value = record[name];
    if (typeof value === 'string') values[name] = value;
    else if (value !== undefined) repeated.push(name);
  }
  return { values, repeated };
}
