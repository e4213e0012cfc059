import { firstOfLastDays, utcDate } from '../domain/days.js';
import { shortLinkOf } from '../domain/short-link.js';
import { apiError } from '../errors.js';
import { byCodeUnits } from '../shared/code-unit-order.js';
import { csvText } from '../shared/csv.js';
import type { Store } from '../store/ports.js';
import { teamAddress } from '../domains/team-address.js';
import { teamById } from './lookup.js';
import { quote } from './quote.js';

/** The days an export covers unless told (never more than are kept: analyticsDays is at least 30). */
export const EXPORT_DAYS = 30;

/** One link's counted clicks and estimated unique visitors on one UTC day. */
export interface ClicksRow {
  date: string;
  code: string;
  /** Empty when the link has no name. */
  name: string;
  /** The address people share: by name when it has one, else by code (as clickBreakdown labels a link). */
  shortLink: string;
  clicks: number;
  visitors: number;
}

/** A team's per-link per-day counts over the dates `from` to `to` (UTC, inclusive). */
export interface TeamClicks {
  team: string;
  from: string;
  to: string;
  rows: ClicksRow[];
}

const COLUMNS = ['date', 'code', 'name', 'short link', 'clicks', 'visitors'] as const;

/**
 * A team's counted clicks per link and day for the last `days` UTC dates ending today, by date then code; days a link
 * had no click are left out. Short links at `base`: the team's address (its primary domain, or PUBLIC_URL). Whoever calls has checked the caller may see the team (its member, or the operator).
 */
export async function teamClicks(store: Store, teamId: string, days: number, now: Date, base: string): Promise<TeamClicks> {
  const [from, to] = [firstOfLastDays(now, days), utcDate(now)];
  const daily = await store.analytics.dailyByLink(teamId, from, to);
  const links = new Map((await store.links.findByIds([...new Set(daily.map((row) => row.linkId))])).map((link) => [link.id, link]));
  const rows = daily.flatMap(({ linkId, day, clicks, visitors }) => {
    // A link deleted between the two reads took its counts with it.
    const link = links.get(linkId);
    if (!link) return [];
    return [{ date: day, code: link.code, name: link.name ?? '', shortLink: shortLinkOf(base, link), clicks, visitors }];
  });
  // By code unit, not locale: codes differ in case (`aB3` and `Ab3` are two links), and a file must sort the same anywhere.
  rows.sort((a, b) => byCodeUnits(a.date, b.date) || byCodeUnits(a.code, b.code));
  return { team: teamId, from, to, rows };
}

/** The export as CSV, with a header row (date, code, name, short link, clicks, visitors). */
export function clicksCsv(clicks: TeamClicks): string {
  return csvText(COLUMNS, clicks.rows.map((row) => [row.date, row.code, row.name, row.shortLink, row.clicks, row.visitors]));
}

/**
 * `clicks export --team T [--days N]`: the team's clicks per link and day; the team by id, `days` a whole number
 * from 1 to the days analytics are kept (the limit analyticsDays; older days are gone), 30 unless given.
 */
export async function exportTeamClicks(store: Store, input: { team: string; days?: string }, now: Date, publicUrl: string): Promise<TeamClicks> {
  const kept = (await store.settings.limits()).analyticsDays;
  const days = input.days === undefined ? EXPORT_DAYS : exportDays(input.days, kept);
  const team = await teamById(store, input.team);
  return teamClicks(store, team.id, days, now, await teamAddress(store.domains, team.id, publicUrl));
}

function exportDays(raw: string, kept: number): number {
  const days = /^[0-9]+$/.test(raw) ? Number(raw) : NaN;
  if (!(days >= 1 && days <= kept)) {
    throw apiError.badRequest(`--days must be a whole number from 1 to ${kept} (the days analytics are kept): ${quote(raw)}`, 'days');
  }
  return days;
}
