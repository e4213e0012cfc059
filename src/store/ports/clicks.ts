export interface DailyClicks {
  /** UTC calendar date, `YYYY-MM-DD`. */
  day: string;
  clicks: number;
}

export interface ClickStore {
  /** Days with clicks between `from` and `to` inclusive (UTC dates); days without clicks are absent. */
  daily(linkId: string, from: string, to: string): Promise<DailyClicks[]>;
  /**
   * Each link's total between `from` and `to` inclusive, in one read (a list of links shows a total per row);
   * links without clicks there are absent.
   */
  totals(linkIds: readonly string[], from: string, to: string): Promise<Map<string, number>>;
  /**
   * Adds counted clicks: link id → day → count. An adapter may write them in several transactions (SQLite: a few
   * milliseconds each, so that a flush over thousands of links never holds the event loop for long); as each commits,
   * its links leave `counts`. So `counts` holds, at any moment, what the store does not hold yet: nothing once add
   * resolves, and what is left to write again when it fails.
   */
  add(counts: Map<string, Map<string, number>>): Promise<void>;
}
