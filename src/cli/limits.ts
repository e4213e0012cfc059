import type { Limits } from '../domain/limits.js';
import type { Store } from '../store/ports.js';
import { quote, type Args } from './args.js';
import { defineCommand } from './command.js';
import { CliError, usageError } from './errors.js';
import { LIMIT_FLAGS, type LimitFlag } from './limit-flags.js';

// Zero would lock every team (or, for calls per minute, every person) out, which is no limit but an outage; the
// ceiling only keeps a typo from turning into a number JSON and the rate-limit headers mangle.
const MAX_LIMIT = 1_000_000_000;
// A wait, not an allowance: zero is a real choice (a private instance where every member's reports count at once).
const MAY_BE_ZERO: ReadonlySet<string> = new Set(['established-after-hours']);

/** The smallest value a limit's flag takes. */
function lowestLimit(flag: LimitFlag): number {
  return MAY_BE_ZERO.has(flag) ? 0 : 1;
}

/** What is wrong with a limit's value, in words that fit beside its field or after its flag. */
function limitRule(flag: LimitFlag): string {
  return `must be a whole number from ${lowestLimit(flag)} to ${MAX_LIMIT}`;
}

/**
 * `limits set` refused: every flag whose value is not a limit, not only the first, so that the operator page shows
 * each beside its field. The message (the CLI's one line) names the first.
 */
export class LimitFaults extends CliError {
  constructor(readonly faults: Partial<Record<LimitFlag, string>>, message: string) {
    super(message, 2);
  }
}

function parseLimit(flag: LimitFlag, raw: string): number | null {
  const value = /^[0-9]+$/.test(raw) ? Number(raw) : NaN;
  return value >= lowestLimit(flag) && value <= MAX_LIMIT ? value : null;
}

/** `limits show`: the limits in force. */
export async function showLimits(_args: Args, store: Store): Promise<Limits> {
  return store.settings.limits();
}

/**
 * `limits set [--team-links N] ...`: changes the given limits, all of them or (when any value is bad) none; a
 * running server applies them on its next request. The operator page's form calls it too.
 */
export async function setLimits(args: Args, store: Store): Promise<Limits> {
  const changes: Partial<Limits> = {};
  const faults: Partial<Record<LimitFlag, string>> = {};
  let first: string | null = null;
  for (const [flag, key] of Object.entries(LIMIT_FLAGS) as Array<[LimitFlag, keyof Limits]>) {
    const raw = args.values[flag];
    if (typeof raw !== 'string') continue;
    const value = parseLimit(flag, raw.trim());
    if (value !== null) changes[key] = value;
    else {
      faults[flag] = limitRule(flag);
      first ??= `--${flag} ${limitRule(flag)}: ${quote(raw.trim())}`;
    }
  }
  if (first !== null) throw new LimitFaults(faults, first);
  if (Object.keys(changes).length === 0) {
    throw usageError(`limits set needs at least one of ${Object.keys(LIMIT_FLAGS).map((f) => `--${f}`).join(', ')}`);
  }
  return store.settings.setLimits(changes);
}

const text = (limits: Limits) =>
  (Object.keys(limits) as Array<keyof Limits>).map((key) => `${key}: ${limits[key]}`).join('\n');

export const limitsShow = defineCommand(showLimits, text);
export const limitsSet = defineCommand(setLimits, text);
