import { teamAddress } from '../domains/team-address.js';
import { apiError } from '../errors.js';
import { EXPORT_FORMATS, exported, teamLinks, type ExportFormat } from '../exports/links-export.js';
import type { Store } from '../store/ports.js';
import { teamById } from './lookup.js';
import { quote } from './quote.js';

/** The format a command line or an address names (csv unless given), or 400 naming the two. */
export function exportFormat(raw: string | undefined, field = 'format'): ExportFormat {
  if (raw === undefined) return 'csv';
  const format = EXPORT_FORMATS.find((known) => known === raw.trim().toLowerCase());
  if (format === undefined) throw apiError.badRequest(`the format must be csv or jsonl: ${quote(raw)}`, field);
  return format;
}

/** `export --team T [--format F]`: the team's links, streamed; the team by id, at its address of the moment. */
export async function exportTeamLinks(store: Store, input: { team: string; format?: string }, publicUrl: string): Promise<AsyncIterable<string>> {
  const format = exportFormat(input.format);
  const team = await teamById(store, input.team);
  return exported(format, teamLinks(store, team.id, await teamAddress(store.domains, team.id, publicUrl)));
}
