import { count } from '../shared/words.js';
import type { RowOutcome } from './run-import.js';

/** An import's totals: rows made (or to make, in a dry run), skipped as duplicates, failed. */
export interface ImportSummary {
  made: number;
  duplicates: number;
  failed: number;
  dryRun: boolean;
}

/** Totals counted as outcomes go by, for the CLI's last line and the Import page's heading. */
export function tally(dryRun: boolean): { add(outcome: RowOutcome): void; summary: ImportSummary } {
  const summary: ImportSummary = { made: 0, duplicates: 0, failed: 0, dryRun };
  return {
    add(outcome) {
      if (outcome.outcome === 'duplicate') summary.duplicates += 1;
      else if (outcome.outcome === 'failed') summary.failed += 1;
      else summary.made += 1;
    },
    summary,
  };
}

/** The totals in a sentence: "Made 3 links; skipped 2 duplicates; 1 row failed." */
export function summarySentence({ made, duplicates, failed, dryRun }: ImportSummary): string {
  const parts = [
    `${dryRun ? 'Would make' : 'Made'} ${count(made, 'link')}`,
    `skipped ${count(duplicates, 'duplicate')}`,
    `${count(failed, 'row')} failed`,
  ];
  return `${parts.join('; ')}.${dryRun ? ' Nothing was made: this was a dry run.' : ''}`;
}

/** One row's outcome in a line of words, as the CLI prints it. */
export function outcomeLine(row: RowOutcome): string {
  const at = `line ${row.line}: `;
  if (row.outcome === 'duplicate') return `${at}skipped, a duplicate of ${row.code}`;
  if (row.outcome === 'failed') return `${at}failed, ${row.error}: ${row.message}`;
  const made = row.outcome === 'made' ? `made ${row.code}` : 'to make';
  const named = row.name === null ? '' : ` named ${row.name}`;
  return `${at}${made}${named}${row.leftOut.map((words) => `; ${words}`).join('')}`;
}
