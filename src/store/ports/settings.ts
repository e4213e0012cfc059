import type { Limits } from '../../domain/limits.js';

/** Operator settings. Read on every call, so adapters keep them in memory and drop them on any change. */
export interface SettingsStore {
  limits(): Promise<Limits>;
  setLimits(changes: Partial<Limits>): Promise<Limits>;
  blockedDomains(): Promise<ReadonlySet<string>>;
  block(domain: string, now: Date): Promise<boolean>;
  unblock(domain: string): Promise<boolean>;
  /** The secret that signs paging cursors and request states, made on first start. */
  cursorSecret(): Promise<Buffer>;
}
