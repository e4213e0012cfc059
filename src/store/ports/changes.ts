/**
 * What changed in the store, for the caches kept in front of it (the redirect cache). A change this process commits
 * is told at once with the codes and names of the links it touched; a change another process committed (another
 * worker, another machine, the operator CLI) is told as precisely as the adapter can, or as null: anything may
 * have changed.
 */
export interface StoreChanges {
  subscribe(listener: (keys: string[] | null) => void): void;
  /**
   * Resolves once every change other processes committed before the call has been told to the listeners. Asked
   * once per request, as it arrives (app.ts; the redirect resolver for a visit), before anything is answered from a
   * cache: what a request must see is
   * what was committed before it was sent, and a change committed while it runs is concurrent with it. The caches
   * themselves do not ask again, which on PostgreSQL would cost a round trip per read.
   */
  catchUp(): Promise<void>;
  /**
   * True when the adapter's own caches (grants, memberships, links by code, settings) look for other processes'
   * changes on every read themselves (SQLite, by data_version, for the cost of a look at the WAL index): then only
   * the caches kept outside the store (the redirect cache) need catchUp.
   */
  readonly cachesCheckThemselves?: boolean;
}
