import type { Limits } from '../../domain/limits.js';
import type { ServiceSettings } from '../../domain/service-settings.js';

/** Operator settings. Read on every call, so adapters keep them in memory and drop them on any change. */
export interface SettingsStore {
  limits(): Promise<Limits>;
  setLimits(changes: Partial<Limits>): Promise<Limits>;
  /** The service settings in force (who may sign up ...), cached and dropped on any change as the limits are. */
  serviceSettings(): Promise<ServiceSettings>;
  /** Changes the given settings, merged with the stored ones as setLimits does; answers those now in force. */
  setServiceSettings(changes: Partial<ServiceSettings>): Promise<ServiceSettings>;
  blockedDomains(): Promise<ReadonlySet<string>>;
  block(domain: string, now: Date): Promise<boolean>;
  unblock(domain: string): Promise<boolean>;
  /** The secret that signs paging cursors and request states, made on first start. */
  cursorSecret(): Promise<Buffer>;
  /** The PUBLIC_URL the server last started with, or null before its first start: the operator CLI's addresses. */
  publicUrl(): Promise<string | null>;
  /** Kept by the server as it starts, so that a CLI run without PUBLIC_URL prints the addresses people use. */
  recordPublicUrl(url: string): Promise<void>;
}
