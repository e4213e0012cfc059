import type { Limits } from '../domain/limits.js';

/**
 * The names of the limits an operator sets (the flags of `limits set`, the fields of the limits page), each with
 * the limit it changes: the one list the CLI's parser (cli/commands.ts), setLimits (limits.ts) and the page read.
 * A module of its own, holding only data, so the parser loads no command to know it.
 */
export const LIMIT_FLAGS = {
  'team-links': 'maxLinksPerTeam',
  'per-hour': 'perHour',
  'per-day': 'perDay',
  'first-week-per-day': 'firstWeekPerDay',
  'changes-per-hour': 'changesPerHour',
  'calls-per-minute': 'callsPerMinute',
  // Not in DECISIONS.md's list, which says the number of reporters that flags a link is configurable.
  'reports-to-flag': 'reportsToFlag',
  'established-after-hours': 'establishedAfterHours',
  'signups-per-hour': 'signupsPerHour',
  'teams-per-hour': 'teamsPerHour',
  'analytics-days': 'analyticsDays',
  'team-domains': 'teamDomains',
} as const satisfies Record<string, keyof Limits>;

export type LimitFlag = keyof typeof LIMIT_FLAGS;
