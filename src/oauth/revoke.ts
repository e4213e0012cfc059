import express, { type Express, type Request, type Response } from 'express';
import type { OAuthStore } from '../store/ports.js';
import { sendClientRefusal, type ClientDirectory } from './clients.js';
import { onlyMethods, openCors, sendOAuthError } from './http.js';
import { sha256 } from '../auth/secrets.js';
import { credentialsOf } from './token.js';

/**
 * `POST /revoke` (RFC 7009). A client revokes one of its tokens, access or refresh; either way the whole family
 * (the tokens descending from one sign-in) goes, so "sign out" in an assistant ends its access at once. A token
 * that is unknown or belongs to another client changes nothing, and the answer is the same 200.
 */
export function revokeRoutes(
  app: Express,
  deps: { store: OAuthStore; clients: ClientDirectory; addressKey: (req: Request) => string },
): void {
  const { store, clients } = deps;

  async function revoke(req: Request, res: Response): Promise<void> {
    res.set('Cache-Control', 'no-store').set('Pragma', 'no-cache');
    if (!req.is('application/x-www-form-urlencoded')) {
      return sendOAuthError(res, 400, 'invalid_request', 'Send the request as application/x-www-form-urlencoded.');
    }
    let clientId: string;
    try {
      clientId = (await clients.authenticate(credentialsOf(req), deps.addressKey(req))).id;
    } catch (error) {
      return sendClientRefusal(res, error);
    }
    const token = (req.body as Record<string, unknown>).token;
    if (typeof token !== 'string' || token === '') return sendOAuthError(res, 400, 'invalid_request', 'Send the token to revoke.');
    const found = await store.token(sha256(token));
    if (found && found.clientId === clientId) await store.revokeFamily(found.family);
    res.status(200).end();
  }

  app.use('/revoke', openCors('POST'));
  app.post('/revoke', express.urlencoded({ extended: false, limit: '16kb' }), revoke);
  app.all('/revoke', onlyMethods('POST'));
}
