/**
 * Tells listeners (the redirect cache) which codes and names a committed change touched. Shared by the stores
 * that change links (links, moderation), so none of them can forget to tell.
 */
export class LinkChanges {
  private readonly listeners: Array<(keys: string[]) => void> = [];

  listen(listener: (keys: string[]) => void): void {
    this.listeners.push(listener);
  }

  /** Called after the transaction committed; null names are skipped. */
  changed(...keys: Array<string | null>): void {
    const touched = keys.filter((key): key is string => key !== null);
    for (const listener of this.listeners) listener(touched);
  }
}
