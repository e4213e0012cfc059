import type { Response } from 'express';
import type { SignedIn } from '../auth/web-sessions.js';
import type { AuthorizationRequest } from './authorize.js';

/**
 * The pages the authorization server shows a person. The web app draws them (they share its look and header) and
 * the composition root hands them in, so the protocol code never reaches into the pages.
 */
export interface OAuthPages {
  /** Asks the signed-in person to approve a client. */
  consent(res: Response, input: { request: AuthorizationRequest; me: SignedIn; csrf: string }): void;
  /** A heading and one sentence: the errors of the OAuth pages. */
  message(res: Response, status: number, title: string, message: string): void;
  /** A request that cannot go back to its client automatically, with a link the person may follow back. */
  refused(res: Response, input: { message: string; error: string; returnTo: string }): void;
}
