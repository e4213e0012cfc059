import { clicksCsv, exportTeamClicks } from '../operator/clicks-export.js';
import { optional, required } from './args.js';
import { defineCommand } from './command.js';

/**
 * `clicks export --team T [--days N]`: the team's counted clicks per link and day as CSV (the team page's download,
 * the same file), on stdout alone so that `> clicks.csv` keeps it clean; `--json` gives the rows.
 */
export const clicksExport = defineCommand(
  (args, store, context) => exportTeamClicks(store, { team: required(args, 'team'), days: optional(args, 'days') }, new Date(), context.publicUrl),
  clicksCsv,
  { data: true },
);
