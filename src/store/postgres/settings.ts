import { randomBytes } from 'node:crypto';
import type { SettingsStore } from '../ports.js';
import type { Limits } from '../../domain/limits.js';
import type { ServiceSettings } from '../../domain/service-settings.js';
import { limitsFrom, serviceSettingsFrom } from '../stored-limits.js';
import { settingsSql } from '../sql/settings.js';
import type { PgPool } from './database.js';
import { changed, row, rows, type Queryable } from './query.js';

interface Cached {
  limits: Limits;
  service: ServiceSettings;
  blocked: ReadonlySet<string>;
}

/** The settings store, and how to drop what it keeps in memory. */
export type PgSettings = SettingsStore & {
  /**
   * Drops the cached limits and blocklist, so the next call reads them again. This process's own writes call it
   * themselves; whatever hears of another process's change (the store's NOTIFY listener) calls it for those.
   */
  forget(): void;
};

/** How settings hear of other processes' changes and tell them of their own (changes.ts). */
export interface SettingsChanges {
  /** Runs a write of settings in one transaction that tells every process, this one as it ends (changes.ts). */
  announced<T>(pool: PgPool, kind: 'settings', work: (client: Queryable) => Promise<T>): Promise<T>;
}

/**
 * Operator settings: limits, service settings, the blocklist and the cursor secret. All but the secret are read on
 * every API call or sign-up, so they are kept in memory until `forget()`, which the store calls when any process
 * changed them; each read first catches up with the changes committed elsewhere, so a limit set by the CLI holds
 * on the very next call.
 */
export function pgSettings(pool: PgPool, changes: SettingsChanges): PgSettings {
  // The read itself is kept, so calls that arrive while it runs share it. forget() drops it: a read begun before
  // a change is never handed to a call made after it.
  let cache: Promise<Cached> | null = null;
  let secret: Promise<Buffer> | null = null;

  const forget = () => {
    cache = null;
  };

  const read = async (): Promise<Cached> => {
    const [stored, service, blocked] = await Promise.all([
      row(pool, settingsSql.value, { key: 'limits' }),
      row(pool, settingsSql.value, { key: 'service' }),
      rows(pool, settingsSql.blocked, {}),
    ]);
    return {
      limits: limitsFrom(stored?.value),
      service: serviceSettingsFrom(service?.value),
      blocked: new Set(blocked.map(({ domain }) => domain)),
    };
  };

  const load = (): Promise<Cached> => {
    if (cache) return cache;
    const loading = read();
    cache = loading;
    // A failed read is not kept: the next call tries again.
    loading.catch(() => {
      if (cache === loading) cache = null;
    });
    return loading;
  };

  /** A write, told to every process with it; this one forgets as it ends, whether or not it went through. */
  const writing = async <T>(write: (client: Queryable) => Promise<T>): Promise<T> => {
    try {
      return await changes.announced(pool, 'settings', write);
    } finally {
      forget();
    }
  };

  /**
   * Merges `changes` into the JSON row `key` (`limits`, `service`) in the database (jsonb ||), atomically: two
   * operators' changes at once both stay. Answers the row as merged.
   */
  const merge = (key: 'limits' | 'service', changes: object): Promise<string> =>
    writing(async (client) => {
      const merged = await row<{ value: string }>(
        client,
        `INSERT INTO settings (key, value) VALUES ($1, $2)
         ON CONFLICT (key) DO UPDATE SET value = (settings.value::jsonb || excluded.value::jsonb)::text
         RETURNING value`,
        [key, JSON.stringify(changes)],
      );
      return merged!.value;
    });

  const makeSecret = async (): Promise<Buffer> => {
    // Two processes starting together both try to insert; the first wins, and both read what it stored.
    await pool.query("INSERT INTO settings (key, value) VALUES ('cursor_secret', $1) ON CONFLICT (key) DO NOTHING", [
      randomBytes(32).toString('base64'),
    ]);
    const stored = await row(pool, settingsSql.value, { key: 'cursor_secret' });
    return Buffer.from(stored!.value, 'base64');
  };

  return {
    limits: async () => (await load()).limits,
    setLimits: async (changes) => limitsFrom(await merge('limits', changes)),
    serviceSettings: async () => (await load()).service,
    setServiceSettings: async (changes) => serviceSettingsFrom(await merge('service', changes)),
    blockedDomains: async () => (await load()).blocked,
    block: (domain, now) =>
      writing(async (client) => {
        return (await changed(client, settingsSql.block, { domain, at: now.toISOString() })) > 0;
      }),
    unblock: (domain) =>
      writing(async (client) => (await changed(client, settingsSql.unblock, { domain })) > 0),
    cursorSecret: () => {
      secret ??= makeSecret().catch((error: unknown) => {
        secret = null;
        throw error;
      });
      return secret;
    },
    // Not announced: no process keeps it in memory; only the CLI reads it, once.
    publicUrl: async () => (await row(pool, settingsSql.value, { key: 'public_url' }))?.value ?? null,
    recordPublicUrl: async (url) => {
      await pool.query(
        `INSERT INTO settings (key, value) VALUES ('public_url', $1)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value WHERE settings.value <> excluded.value`,
        [url],
      );
    },
    forget,
  };
}
