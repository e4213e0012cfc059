import { ANALYTICS_DAYS } from '../domain/analytics.js';
import { LIFTED_LIMIT, type Limits } from '../domain/limits.js';
import { ApiError, apiError } from '../errors.js';
import type { Store } from '../store/ports.js';
import { LIMIT_FLAGS, type LimitFlag } from './limit-flags.js';
import { quote } from './quote.js';

// Zero would lock every team (or, for calls per minute, every person) out, which is no limit but an outage; the
// ceiling only keeps a typo from turning into a number JSON and the rate-limit headers mangle.
const MAX_LIMIT = LIFTED_LIMIT;
// The limits whose lowest value is not 1. A wait, not an allowance: zero is a real choice (a private instance where
// every member's reports count at once; an instance whose teams keep to PUBLIC_URL, no domains). Analytics are kept at
// least the spec's 30 days, which linkClicks answers.
const LOWEST: Partial<Record<LimitFlag, number>> = { 'established-after-hours': 0, 'analytics-days': ANALYTICS_DAYS.min, 'team-domains': 0 };

/** The smallest value a limit takes. */
function lowestLimit(flag: LimitFlag): number {
  return LOWEST[flag] ?? 1;
}

/** What is wrong with a limit's value, in words that fit beside its field or after its flag. */
function limitRule(flag: LimitFlag): string {
  return `must be a whole number from ${lowestLimit(flag)} to ${MAX_LIMIT}`;
}

/**
 * setLimits refused: every limit whose value is not one, not only the first, so that the operator page shows each
 * beside its field. The message (the CLI's one line) and the field name the first.
 */
export class LimitFaults extends ApiError {
  constructor(
    readonly faults: Partial<Record<LimitFlag, string>>,
    message: string,
    field: LimitFlag,
  ) {
    super('bad_request', message, field);
  }
}

/**
 * `limits set --preset NAME`: limits set together, before any flag given with it (which wins). `private` lifts every
 * creation and change limit, as a company's own instance trusts its members; it keeps the calls-per-minute budget,
 * which guards the server from a runaway script rather than people from each other, and the sign-up, team and
 * report limits, which concern strangers.
 */
const LIMIT_PRESETS = {
  private: Object.fromEntries(
    (['team-links', 'per-hour', 'per-day', 'first-week-per-day', 'changes-per-hour'] as const).map((flag) => [flag, String(MAX_LIMIT)]),
  ),
} as const satisfies Record<string, Partial<Record<LimitFlag, string>>>;

/** The names `--preset` takes. */
type LimitPreset = keyof typeof LIMIT_PRESETS;

function presetLimits(name: string): Partial<Record<LimitFlag, string>> {
  if (Object.hasOwn(LIMIT_PRESETS, name)) return LIMIT_PRESETS[name as LimitPreset];
  throw apiError.badRequest(`--preset must be one of ${Object.keys(LIMIT_PRESETS).join(', ')}: ${quote(name)}`, 'preset');
}

function parseLimit(flag: LimitFlag, raw: string): number | null {
  const value = /^[0-9]+$/.test(raw) ? Number(raw) : NaN;
  return value >= lowestLimit(flag) && value <= MAX_LIMIT ? value : null;
}

/** The limits in force. */
export async function showLimits(store: Store): Promise<Limits> {
  return store.settings.limits();
}

/**
 * Changes the given limits (each as typed, by its flag), all of them or (when any value is bad) none; a running
 * server applies them on its next request. The others keep their values: giving one would store it as an override.
 */
export async function setLimits(
  store: Store,
  given: Partial<Record<LimitFlag, string>>,
  preset?: string,
): Promise<Limits> {
  const typed = preset === undefined ? given : { ...presetLimits(preset.trim()), ...given };
  const changes: Partial<Limits> = {};
  const faults: Partial<Record<LimitFlag, string>> = {};
  let first: { flag: LimitFlag; message: string } | null = null;
  for (const [flag, key] of Object.entries(LIMIT_FLAGS) as Array<[LimitFlag, keyof Limits]>) {
    const raw = typed[flag];
    if (raw === undefined) continue;
    const value = parseLimit(flag, raw.trim());
    if (value !== null) changes[key] = value;
    else {
      faults[flag] = limitRule(flag);
      first ??= { flag, message: `--${flag} ${limitRule(flag)}: ${quote(raw.trim())}` };
    }
  }
  if (first !== null) throw new LimitFaults(faults, first.message, first.flag);
  if (Object.keys(changes).length === 0) {
    throw apiError.badRequest(`limits set needs --preset or at least one of ${Object.keys(LIMIT_FLAGS).map((f) => `--${f}`).join(', ')}`);
  }
  return store.settings.setLimits(changes);
}
