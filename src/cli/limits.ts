import type { Limits } from '../domain/limits.js';
import type { Store } from '../store/ports.js';
import { quote, type Args } from './args.js';
import { defineCommand } from './command.js';
import { usageError } from './errors.js';
import { LIMIT_FLAGS } from './limit-flags.js';


// Zero would lock every team (or, for calls per minute, every person) out, which is no limit but an outage; the
// ceiling only keeps a typo from turning into a number JSON and the rate-limit headers mangle.
const MAX_LIMIT = 1_000_000_000;
// A wait, not an allowance: zero is a real choice (a private instance where every member's reports count at once).
const MAY_BE_ZERO: ReadonlySet<string> = new Set(['established-after-hours']);

function parseLimit(flag: string, raw: string): number {
  const value = /^[0-9]+$/.test(raw) ? Number(raw) : NaN;
  const min = MAY_BE_ZERO.has(flag) ? 0 : 1;
  if (!(value >= min && value <= MAX_LIMIT)) {
    throw usageError(`--${flag} must be a whole number from ${min} to ${MAX_LIMIT}: ${quote(raw)}`);
  }
  return value;
}

/** `limits show`: the limits in force. */
export async function showLimits(_args: Args, store: Store): Promise<Limits> {
  return store.settings.limits();
}

/** `limits set [--team-links N] ...`: changes the given limits; a running server applies them on its next request. */
export async function setLimits(args: Args, store: Store): Promise<Limits> {
  const changes: Partial<Limits> = {};
  for (const [flag, key] of Object.entries(LIMIT_FLAGS)) {
    const raw = args.values[flag];
    if (typeof raw === 'string') changes[key] = parseLimit(flag, raw.trim());
  }
  if (Object.keys(changes).length === 0) {
    throw usageError(`limits set needs at least one of ${Object.keys(LIMIT_FLAGS).map((f) => `--${f}`).join(', ')}`);
  }
  return store.settings.setLimits(changes);
}

const text = (limits: Limits) =>
  (Object.keys(limits) as Array<keyof Limits>).map((key) => `${key}: ${limits[key]}`).join('\n');

export const limitsShow = defineCommand(showLimits, text);
export const limitsSet = defineCommand(setLimits, text);
