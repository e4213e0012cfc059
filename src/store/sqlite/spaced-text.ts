import type { Db } from './database.js';

const GAP = '\u0001';

/**
 * Text with a control character before, between and after its characters: "ab" → "␁a␁b␁". Indexed by trigrams,
 * every 1- or 2-character substring of the original becomes a 3- or 5-character substring here, so the trigram
 * index can find queries too short for the plain one. Stored values never hold control characters, so the gap
 * cannot be confused with data.
 */
export function spacedText(text: string | null): string | null {
  return text === null ? null : `${GAP}${[...text].join(GAP)}${GAP}`;
}

/** Registers `spaced_text()` on a connection; the search index's triggers call it on every write to `links`. */
export function registerSpacedText(db: Db): void {
  db.function('spaced_text', { deterministic: true }, (text: unknown) => spacedText(text as string | null));
}
