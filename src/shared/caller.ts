/**
 * Who is calling, as every surface hands it to a tool: the person, and what their token (if any) limits them to.
 * Authentication builds it, tools read it; neither owns it.
 */
export interface Caller {
  personId: string;
  /** Operation names the caller may use; null for all. */
  scopes: ReadonlySet<string> | null;
  /** Set for a token limited to its team's record: it changes nothing outside that team, and reads there only
   * what a signed-out visitor reads. */
  recordTeamId: string | null;
}
