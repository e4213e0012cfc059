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
  /** Adds counted clicks: link id → day → count. */
  add(counts: Map<string, Map<string, number>>): Promise<void>;
}
