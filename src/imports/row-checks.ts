import { checkName } from '../domain/link-name.js';
import { checkTags, TAGS_MAX } from '../domain/link-options.js';
import { checkNote } from '../domain/note.js';
import { ApiError, apiError, toApiError } from '../errors.js';
import type { ImportItem, Team } from '../store/ports.js';
import type { ToolContext } from '../tools/define-tool.js';
import { firstFault } from '../tools/faults.js';
import { checkNewLink } from '../tools/link-checks.js';
import type { ImportRow } from './import-row.js';

/** A row that passed createLink's rules, as the store makes it, and what of a peer's fields was left out, in words. */
export interface CheckedRow {
  item: ImportItem;
  leftOut: string[];
}

/**
 * Checks a row exactly as createLink checks its params (tools/link-checks.ts), in `team`: the row as the store
 * makes it, or the refusal createLink would answer. A peer's name (its slug), note (its title) and tags come over
 * when they fit the rules; what does not is left out, and said, rather than failing the row: they were made under
 * another product's rules. Whether the slug is free is the store's to decide (links.importMany).
 */
export async function checkRow(ctx: ToolContext, team: Team, row: ImportRow): Promise<CheckedRow | ApiError> {
  const leftOut: string[] = [];
  try {
    const peer = row.fromPeer ? fitted(row, leftOut) : row;
    const { name, note, tags } = peer;
    const input = { destination: row.destination, name, note, tags, expiresAt: row.expiresAt, maxClicks: maxClicksOf(row.maxClicks) };
    const link = await firstFault((faults) => checkNewLink(ctx, faults, team, input));
    return { item: { ...link, nameIfFree: row.fromPeer && link.name !== null }, leftOut };
  } catch (error) {
    const failed = toApiError(error);
    if (failed.code === 'internal_server_error') throw error;
    return failed;
  }
}

/** A peer's name, note and tags, each kept when it passes our rule; else left out, with the rule's words. */
function fitted(row: ImportRow, leftOut: string[]): Pick<ImportRow, 'name' | 'note' | 'tags'> {
  const kept = <T>(what: string, value: T, rule: (value: T) => unknown): boolean => {
    try {
      rule(value);
      return true;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      leftOut.push(`${what} left out: ${error.detail}`);
      return false;
    }
  };
  const name = row.name !== null && kept(`The name "${row.name}"`, row.name, checkName) ? row.name : null;
  const note = row.note !== null && kept('The title', row.note, checkNote) ? row.note : null;
  const tags = row.tags.filter((tag) => kept(`The tag "${tag}"`, [tag], checkTags));
  const unique = [...new Set(tags)];
  if (unique.length > TAGS_MAX) leftOut.push(`Tags left out: ${unique.slice(TAGS_MAX).join(', ')} (a link has at most ${TAGS_MAX}).`);
  return { name, note, tags: unique.slice(0, TAGS_MAX) };
}

/** A file's maxClicks cell as createLink's number: digits only; anything else is refused as createLink refuses it. */
function maxClicksOf(cell: string | null): number | null {
  if (cell === null) return null;
  if (!/^\d{1,15}$/.test(cell)) throw apiError.invalidMaxClicks(undefined, 'maxClicks');
  return Number(cell);
}
