import { isLifted, type Limits } from '../domain/limits.js';
import { count } from '../shared/words.js';

/** The creation limits in force, as createLink and createLinks tell assistants. A first-week allowance above the
 * daily one cannot apply (the store checks the smaller of the two), so the one that does is named. */
export function creationLimitsSentence(limits: Limits): string {
  if ([limits.maxLinksPerTeam, limits.perHour, limits.perDay].every(isLifted)) return 'The operator set no limit on the links a team holds or makes.';
  const firstWeek = Math.min(limits.firstWeekPerDay, limits.perDay);
  return `A team holds at most ${count(limits.maxLinksPerTeam, 'link')} and may make ${limits.perHour} an hour and ` +
    `${limits.perDay} a day (${firstWeek} a day in its first week).`;
}

/** The change limit in force, for the tools that count against it. */
export function changesSentence(limits: Limits): string {
  if (isLifted(limits.changesPerHour)) return "The operator set no limit on a team's changes.";
  return `A team may make ${count(limits.changesPerHour, 'change')} an hour (new destinations, names, options and deletions together).`;
}

/** The person's call budget, for tools an assistant may call many times in a row. */
export function callsSentence(limits: Limits): string {
  return `A person may make ${count(limits.callsPerMinute, 'call')} a minute, shared by all their tokens and assistants.`;
}
