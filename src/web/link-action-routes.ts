import type { Express, Request, Response } from 'express';
import type { SignedIn } from '../auth/web-sessions.js';
import { ApiError } from '../errors.js';
import { setRetryAfter } from '../http/retry-after.js';
import type { Link } from '../tools/schemas.js';
import { linkOf } from './link-of.js';
import { signedInOnly, type PageDeps } from './request.js';

/** One action on a link with a page of its own, at `/app/links/<code>/<path>`. */
export interface LinkAction {
  path: string;
  /** The page: the form, or (after a refusal) the form again with the tool's message. */
  show(req: Request, res: Response, me: SignedIn, link: Link, refusal?: ApiError): void;
  /** Runs the action's tool; resolves to where the person goes next (post/redirect/get). */
  act(req: Request, me: SignedIn, link: Link): Promise<string>;
}

/**
 * The GET and POST of a link's action page. Both read the link through linkByCode first (linkOf), so anyone outside
 * its team gets the 404 page before any form. A refusal of the action's tool is shown on the page that asked, with
 * its status and Retry-After; a link deleted meanwhile is the 404 page.
 */
export function linkActionRoutes(app: Express, deps: PageDeps, action: LinkAction): void {
  const path = `/app/links/:code/${action.path}`;
  const linkFor = (req: Request, me: SignedIn) => linkOf(deps.ctx, me, req.params.code as string);
  app.get(path, signedInOnly(deps, async (req, res, me) => action.show(req, res, me, await linkFor(req, me))));
  app.post(
    path,
    signedInOnly(deps, async (req, res, me) => {
      const link = await linkFor(req, me);
      let next: string;
      try {
        next = await action.act(req, me, link);
      } catch (error) {
        if (!(error instanceof ApiError) || error.status === 404) throw error;
        setRetryAfter(res, error.retryAfter);
        return action.show(req, res, me, link, error);
      }
      res.redirect(303, next);
    }),
  );
}
