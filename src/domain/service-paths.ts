/**
 * The first path segments the service answers itself: the pages, OAuth, `/mcp` and the API (every `/v<n>`). The
 * composition root sends only these paths there (every other path is a link's), the web app serves nothing else,
 * and the name rule reserves them. So a link can never shadow a page, and a new page whose segment is missing here
 * is never reached at all: its author finds out on the first request, not when someone takes the name.
 */
export const SERVICE_SEGMENTS: ReadonlySet<string> = new Set([
  '', // the home page
  'mcp',
  'signin', 'signup', 'signout', 'welcome', 'set-password', 'forgot', 'account',
  'app', 'teams', 'developers', 'assistants', 'admin',
  'docs', 'health', 'healthz',
  'authorize', 'token', 'register', 'revoke', '.well-known',
  'favicon.ico', 'favicon.svg', 'robots.txt',
]);

/** `/v1`, `/v0`, `/v2`...: the API's versions, answered (or retired) by the API. */
export function isVersionSegment(segment: string): boolean {
  return /^v\d+$/.test(segment);
}

/** True for a path the service answers itself rather than as a link: `/signin`, `/teams/team_x`, `/v1/getLink`. */
export function isServicePath(path: string): boolean {
  // Asked of every request, redirects included: a slice, not a split into an array.
  const end = path.indexOf('/', 1);
  const segment = path.slice(1, end === -1 ? undefined : end);
  return SERVICE_SEGMENTS.has(segment) || isVersionSegment(segment);
}
