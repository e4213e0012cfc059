import type { Request } from 'express';
import { queryText } from './request.js';

/**
 * What the dashboard's list shows, all in the address (a GET form and plain links, so every view can be bookmarked,
 * shared and reloaded, and works without JavaScript). `q`, `state`, `tag` and `after` go to the teamLinks tool as they
 * are, so its rules and messages apply. `team` picks one team to page through; without it every team shows its
 * newest page. Cursors only go forward, so `back` keeps the cursors of the pages before this one (the first page
 * has none): "Newer links" pops the last of them.
 */
export interface ListQuery {
  team: string | null;
  q: string;
  state: string;
  tag: string;
  after: string | null;
  back: string[];
}

/** Cursors are base64url with one dot, so a tilde never occurs inside one. */
const TRAIL_SEPARATOR = '~';
/** Enough for any trail a person pages through; a longer one is cut from the oldest end (then "Newer" ends early). */
const MAX_TRAIL = 40;

export function listQueryOf(req: Request): ListQuery {
  const team = queryText(req, 'team');
  const after = queryText(req, 'after');
  const back = queryText(req, 'back').split(TRAIL_SEPARATOR).filter((cursor) => cursor !== '');
  return {
    team: team === '' ? null : team,
    q: queryText(req, 'q'),
    state: queryText(req, 'state'),
    tag: queryText(req, 'tag'),
    after: after === '' ? null : after,
    back: back.slice(-MAX_TRAIL),
  };
}

/** The address of a view of the list; empty values are left out, so the plain dashboard stays `/app`. */
export function listHref(query: ListQuery): string {
  const params = new URLSearchParams();
  if (query.team !== null) params.set('team', query.team);
  if (query.q !== '') params.set('q', query.q);
  if (query.state !== '') params.set('state', query.state);
  if (query.tag !== '') params.set('tag', query.tag);
  if (query.after !== null) params.set('after', query.after);
  if (query.back.length > 0) params.set('back', query.back.join(TRAIL_SEPARATOR));
  const search = params.toString();
  return search === '' ? '/app' : `/app?${search}`;
}

/** The next (older) page of one team, remembering this page to come back to. */
export function olderHref(query: ListQuery, team: string, next: string): string {
  const back = query.team === team && query.after !== null ? [...query.back, query.after] : [];
  return listHref({ ...query, team, after: next, back });
}

/** The page before this one (newer links), or null on a first page. */
export function newerHref(query: ListQuery): string | null {
  if (query.after === null) return null;
  return listHref({ ...query, after: query.back.at(-1) ?? null, back: query.back.slice(0, -1) });
}

/** Whether the list is narrowed by a search, a state or a tag (then an empty list says so, not "no links yet"). */
export function isFiltered(query: ListQuery): boolean {
  return query.q !== '' || query.state !== '' || query.tag !== '';
}
