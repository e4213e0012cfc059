/**
 * What changed in the store, for the caches kept in front of it (the redirect cache). A change this process commits
 * is told at once with the codes and names of the links it touched; a change another process committed (another
 * worker, another machine, the operator CLI) is told as precisely as the adapter can, or as null: anything may
 * have changed.
 */
export interface StoreChanges {
  subscribe(listener: (keys: string[] | null) => void): void;
  /**
   * Resolves once every change another process made before the call (its caller answered) has been told to the
   * listeners. Asked once per request, as it arrives (routing.ts; the redirect resolver for a visit), before
   * anything is answered from a cache: what a request must see is what was done before it was sent, and a change
   * made while it runs is concurrent with it. SQLite reads the other processes' changes from the file; PostgreSQL's
   * writers wait until every live process has told its caches, so a request asks no round trip (postgres/changes.ts).
   * Both answer the requests of one turn together, in the check phase (support/check-phase-look.ts).
   */
  catchUp(): Promise<void>;
  /**
   * True when the adapter's own caches (grants, memberships, links by code, settings) look for other processes'
   * changes on every read themselves (SQLite, by data_version, for the cost of a look at the WAL index): then only
   * the caches kept outside the store (the redirect cache) need catchUp.
   */
  readonly cachesCheckThemselves?: boolean;
}
