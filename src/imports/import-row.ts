/** The files `import` reads (imports/formats/): the CSV exports of four peers, and a plain CSV of our own fields. */
export const IMPORT_FORMATS = ['bitly', 'shlink', 'kutt', 'yourls', 'csv'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/**
 * One row of an import file, read into our fields and not checked yet: every rule is createLink's, applied by the
 * import (imports/run-import.ts). Text is as the file has it, trimmed; an empty cell is null (or [] for tags).
 */
export interface ImportRow {
  /** The row's line in the file, counting the header as 1: how outcomes name rows. */
  line: number;
  /** Empty when the row has none: it then fails as createLink fails an empty destination. */
  destination: string;
  /**
   * The link's name. From a plain CSV it must pass the name rules, as createLink's `name`; from a peer it is the
   * peer's slug (back-half, short code, keyword), kept only when it fits and is free (`fromPeer`).
   */
  name: string | null;
  /** From a plain CSV, the note; from a peer, its title, which is made to fit the note's rules. */
  note: string | null;
  tags: string[];
  /** An ISO 8601 date-time, as the file has it. */
  expiresAt: string | null;
  /** Digits, as the file has them. */
  maxClicks: string | null;
  /** Read from a peer's export: its name, note and tags come over when they fit, and the row says what did not. */
  fromPeer: boolean;
}

/** A row that cannot be read as a link at all (a row of the wrong width, say): it fails on its own. */
export interface UnreadableRow {
  line: number;
  unreadable: string;
}

/**
 * A file that cannot be imported at all (no header naming a destination column, not CSV): thrown before any row is
 * made, as 400 invalid_import.
 */
export type ReadRows = (file: NodeJS.ReadableStream) => AsyncIterable<ImportRow | UnreadableRow>;
