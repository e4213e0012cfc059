import type { IncomingMessage, ServerResponse } from 'node:http';
import { PAGE_HEADERS } from '../views/layout.js';
import { ROBOTS_TXT } from '../views/robots.js';
import { domainRootPage, notFoundPage } from './pages.js';
import type { TeamDomain } from '../store/ports.js';

const PAGE = { ...PAGE_HEADERS, 'Content-Type': 'text/html; charset=utf-8' };

/**
 * What a team's domain answers beside its links (which the redirect handler answers, given the domain as the
 * site: handler.ts): `/` sends visitors where the team chose, or shows a plain page; `robots.txt` is PUBLIC_URL's;
 * every other path, and every path of a domain not verified (pending, or failed), is the not-found page. The API,
 * MCP, OAuth and the web app are never served on a team's domain.
 */
export function answerOnDomain(req: IncomingMessage, res: ServerResponse, domain: TeamDomain, path: string): void {
  const read = req.method === 'GET' || req.method === 'HEAD';
  const body = (text: string) => void res.end(req.method === 'HEAD' ? undefined : text);
  if (read && domain.state === 'verified' && path === '/') {
    if (domain.rootUrl !== null) {
      // Kept as the checked URL's serialization (domains/manage.ts setDomainRoot): ASCII, fit for a header as it is.
      res.writeHead(302, { Location: domain.rootUrl, 'Cache-Control': 'private, max-age=0' });
      return void res.end();
    }
    res.writeHead(200, PAGE);
    return body(domainRootPage(domain.domain));
  }
  if (read && path === '/robots.txt') {
    res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'public, max-age=86400' });
    return body(ROBOTS_TXT);
  }
  res.writeHead(404, PAGE);
  body(notFoundPage());
}
