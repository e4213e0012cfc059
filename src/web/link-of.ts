import type { SignedIn } from '../auth/web-sessions.js';
import { linkNotFound } from '../domain/link-state.js';
import { ApiError } from '../errors.js';
import type { ToolContext } from '../tools/define-tool.js';
import { linkByCode } from '../tools/link-by-code.js';
import type { Link } from '../tools/schemas.js';
import { runTool } from './run-tool.js';

/**
 * The link a page at `/app/links/<code>/...` is about, read through linkByCode, so only its team reaches it (404
 * `not_found` for everyone else, as the API answers). A code of the wrong shape names no link either: the same 404,
 * not the API's 400, since here it is an address that leads nowhere rather than a malformed param.
 */
export async function linkOf(ctx: ToolContext, me: SignedIn, code: string): Promise<Link> {
  try {
    return await runTool(ctx, linkByCode, me, { code });
  } catch (error) {
    if (error instanceof ApiError && error.code === 'bad_request') throw linkNotFound();
    throw error;
  }
}

/** A link's short addresses (on its team's primary domain, or PUBLIC_URL): by code, and by name when it has one. */
export function shortAddresses(link: Pick<Link, 'shortUrl' | 'nameUrl'>): string[] {
  return [link.shortUrl, ...(link.nameUrl ? [link.nameUrl] : [])];
}
