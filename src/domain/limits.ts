import { apiError } from '../errors.js';
import { ANALYTICS_DAYS } from './analytics.js';
import { DEFAULT_TEAM_DOMAINS } from './custom-domain.js';
import { count, timeToWait } from '../shared/words.js';

/** The operator's limits (kept in the database, changed with `shortlinks limits set`). */
export interface Limits {
  /** Links a team may hold at once (team_full). */
  maxLinksPerTeam: number;
  /** New links per team per rolling hour. */
  perHour: number;
  /** New links per team per rolling day. */
  perDay: number;
  /** New links per team per rolling day during the team's first 7 days. */
  firstWeekPerDay: number;
  /** setDestination, renameLink and deleteLink per team per rolling hour. */
  changesPerHour: number;
  /** Calls per person per minute, shared by every token, assistant session and the dashboard. */
  callsPerMinute: number;
  /** Reports from this many different established people flag a link. */
  reportsToFlag: number;
  /**
   * Hours after sign-up before a person who agreed to the terms and belongs to a team is established, so that their
   * reports count towards flagging (people the operator added count at once).
   */
  establishedAfterHours: number;
  /** Accounts made by sign-up per client address (an IPv6 address's /64) per hour. */
  signupsPerHour: number;
  /** Teams made in the web app per client address, and per person, per hour. */
  teamsPerHour: number;
  /** Days of click analytics kept (today included); the daily removal job deletes the days before. */
  analyticsDays: number;
  /** Own short domains a team may hold (domain/custom-domain.ts). */
  teamDomains: number;
}

export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({
  maxLinksPerTeam: 25,
  perHour: 20,
  perDay: 100,
  firstWeekPerDay: 10,
  changesPerHour: 60,
  callsPerMinute: 600,
  reportsToFlag: 3,
  establishedAfterHours: 72,
  signupsPerHour: 10,
  teamsPerHour: 10,
  analyticsDays: ANALYTICS_DAYS.default,
  teamDomains: DEFAULT_TEAM_DOMAINS,
});

/**
 * The highest value the operator may give a limit, and the one `limits set --preset private` gives: no limit in
 * practice, so what tells people the limits (tool descriptions, the team's count of links) leaves it out.
 */
export const LIFTED_LIMIT = 1_000_000_000;

/** Whether the operator lifted a limit. */
export function isLifted(limit: number): boolean {
  return limit >= LIFTED_LIMIT;
}

/** The most links one createLinks call makes: the spec's, not the operator's. */
export const MAX_LINKS_PER_CALL = 50;

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;
const WEEK_MS = 7 * DAY_MS;

/** What a team has made recently, counted by the store inside the creating transaction. */
export interface CreationCounts {
  live: number;
  lastHour: WindowCount;
  lastDay: WindowCount;
}

/** Events in a rolling window, and when the oldest of them was (epoch ms), to say when a place frees up. */
export interface WindowCount {
  count: number;
  oldestAt: number | null;
}

/**
 * Throws 409 `team_full` or 429 `limit_reached` when one more link would break a limit. The 429 carries
 * `retryAfter`: the seconds until the oldest counted event leaves its window.
 */
export function checkCreationLimits(counts: CreationCounts, teamCreatedAt: Date, now: Date, limits: Limits): void {
  if (counts.live >= limits.maxLinksPerTeam) {
    throw apiError.teamFull(`The team already holds ${count(limits.maxLinksPerTeam, 'link')}; delete one to make room.`);
  }
  if (counts.lastHour.count >= limits.perHour) {
    const detail = `The team made ${count(limits.perHour, 'link')} in the last hour. ${operators('new links per team per hour')}`;
    throw limitReached(detail, counts.lastHour, HOUR_MS, now);
  }
  const firstWeek = now.getTime() - teamCreatedAt.getTime() < WEEK_MS;
  const perDay = firstWeek ? Math.min(limits.firstWeekPerDay, limits.perDay) : limits.perDay;
  if (counts.lastDay.count >= perDay) {
    const [why, limit] = firstWeek && perDay < limits.perDay
      ? [' (a team in its first week)', "new links per team per day in a team's first week"]
      : ['', 'new links per team per day'];
    const detail = `The team made ${count(perDay, 'link')} in the last day${why}. ${operators(limit)}`;
    throw limitReached(detail, counts.lastDay, DAY_MS, now);
  }
}

/** A window nobody counts in: what a lifted limit's count is taken to be. */
export const UNCOUNTED: WindowCount = Object.freeze({ count: 0, oldestAt: null });

/**
 * Which creation windows the limits need counted: none that the operator lifted (`--preset private`, an import's
 * `--no-limits`). Counting a window reads every event in it, so a team making 100,000 links under lifted limits
 * would read ever more rows for each; a limit in force keeps its window short.
 */
export function creationWindows(limits: Limits): { hour: boolean; day: boolean } {
  return { hour: !isLifted(limits.perHour), day: !(isLifted(limits.perDay) && isLifted(limits.firstWeekPerDay)) };
}

/** Throws 429 `limit_reached` when the team has used its changes for the hour. */
export function checkChangeLimit(changesLastHour: WindowCount, now: Date, limits: Limits): void {
  if (changesLastHour.count >= limits.changesPerHour) {
    const detail = `The team made ${count(limits.changesPerHour, 'change')} in the last hour. ${operators('changes per team per hour')}`;
    throw limitReached(detail, changesLastHour, HOUR_MS, now);
  }
}

/**
 * Names the limit that was hit and who sets it, so that a person on a private instance knows whom to ask and an
 * operator knows which `limits set` flag to change.
 */
function operators(limit: string): string {
  return `That is the operator's limit of ${limit}.`;
}

function limitReached(detail: string, window: WindowCount, windowMs: number, now: Date) {
  const freesAt = (window.oldestAt ?? now.getTime()) + windowMs;
  const seconds = Math.max(1, Math.ceil((freesAt - now.getTime()) / 1000));
  return apiError.limitReached(`${detail} Try again in ${timeToWait(seconds)}.`, null, seconds);
}
