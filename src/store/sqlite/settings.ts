import { randomBytes } from 'node:crypto';
import type { SettingsStore } from '../ports.js';
import type { Limits } from '../../domain/limits.js';
import type { ServiceSettings } from '../../domain/service-settings.js';
import { limitsFrom, serviceSettingsFrom } from '../stored-limits.js';
import { settingsSql } from '../sql/settings.js';
import { changeWatcher, writeTransaction, type Db } from './database.js';
import { prepareAll } from './prepare.js';

/**
 * Operator settings: limits, service settings, the blocklist and the cursor secret. Reads are cached in memory and
 * dropped as soon as another process (the operator CLI) commits, so `shortlinks limits set` (or `settings set`)
 * takes effect on the next request.
 */
export function sqliteSettings(db: Db): SettingsStore {
  const s = prepareAll(db, settingsSql);
  const get = (key: string) => s.value.get({ key })?.value;
  const put = db.prepare(
    'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  );
  const changed = changeWatcher(db);
  let cache: { limits: Limits; service: ServiceSettings; blocked: ReadonlySet<string> } | null = null;

  const load = () => {
    if (cache && !changed()) return cache;
    cache = {
      limits: limitsFrom(get('limits')),
      service: serviceSettingsFrom(get('service')),
      blocked: new Set(s.blocked.all({}).map(({ domain }) => domain)),
    };
    return cache;
  };
  /** Merges `changes` into the JSON row `key` (`limits`, `service`), read and written in one write transaction. */
  const merge = writeTransaction(db, (key: 'limits' | 'service', changes: object) => {
    const stored = get(key);
    put.run(key, JSON.stringify({ ...(stored ? (JSON.parse(stored) as object) : {}), ...changes }));
    cache = null;
    return load();
  });
  const secret = writeTransaction(db, (): Buffer => {
    const stored = get('cursor_secret');
    if (stored) return Buffer.from(stored, 'base64');
    const made = randomBytes(32);
    put.run('cursor_secret', made.toString('base64'));
    return made;
  });
  const cursorSecret = secret();

  return {
    limits: async () => load().limits,
    setLimits: async (changes) => merge('limits', changes).limits,
    serviceSettings: async () => load().service,
    setServiceSettings: async (changes) => merge('service', changes).service,
    blockedDomains: async () => load().blocked,
    block: async (domain, now) => {
      cache = null;
      return s.block.run({ domain, at: now.toISOString() }).changes > 0;
    },
    unblock: async (domain) => {
      cache = null;
      return s.unblock.run({ domain }).changes > 0;
    },
    cursorSecret: async () => cursorSecret,
    publicUrl: async () => get('public_url') ?? null,
    recordPublicUrl: async (url) => {
      // Unchanged on most starts: no write, so nothing wakes the other processes' change watchers.
      if (get('public_url') !== url) put.run('public_url', url);
    },
  };
}
