import type { z } from 'zod';
import { apiError, type ApiError } from '../errors.js';
import { clipped, count, someOf } from '../shared/words.js';

/**
 * Our words for the faults a person makes most, read after the param's name ("reason is required."), where zod's
 * own read as a fault of ours ("Invalid input: expected string, received undefined") or as code ("Too big:
 * expected string to have <=500 characters"). Each begins "is", which is how badRequest tells them from zod's.
 */
const OWN_WORDS: z.core.ParseContext<z.core.$ZodIssue> = {
  error: (issue) => {
    if (issue.code === 'invalid_type' && issue.input === undefined) return 'is required';
    if (issue.code === 'too_big' && issue.origin === 'string') return `is longer than ${count(Number(issue.maximum), 'character')}`;
    if (issue.code === 'too_small' && issue.origin === 'string') {
      return Number(issue.minimum) === 1 ? 'is empty' : `is shorter than ${count(Number(issue.minimum), 'character')}`;
    }
    return undefined;
  },
};

/** Parses `value` with `schema`, or throws 400 `bad_request` naming the param at fault (`links[3].` as `prefix`). */
export function parseParams<S extends z.ZodType>(schema: S, value: unknown, prefix = ''): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  // Parsed again, in our words, only when it failed: an error option costs zod 2-3 µs on every parse, passing or not.
  throw badRequest(schema.safeParse(value, OWN_WORDS).error!, prefix);
}

/** The param at fault in a zod error, in the spec's notation: `links[3].name`, `limit`, or null for the body. */
export function fieldOf(error: z.ZodError, prefix = ''): string | null {
  const issue = error.issues[0];
  if (!issue) return null;
  // An unknown param is reported on its parent; name the param itself (its name cut short: it is the caller's).
  const path = issue.code === 'unrecognized_keys' ? [...issue.path, clipped(issue.keys[0] ?? '')] : issue.path;
  const text = path
    .map((part, i) => (typeof part === 'number' ? `[${part}]` : `${i === 0 ? '' : '.'}${String(part)}`))
    .join('');
  if (text === '') return prefix === '' ? null : prefix.replace(/\.$/, '');
  return `${prefix}${text}`;
}

/** 400 `bad_request` for a body or item that does not match its schema, naming the param at fault. */
function badRequest(error: z.ZodError, prefix: string): ApiError {
  const field = fieldOf(error, prefix);
  const issue = error.issues[0];
  // Our own words read as a sentence about the param ("team is required."); zod's follow its name and a colon.
  const own = issue?.code === 'unrecognized_keys' ? unknownWords(issue.keys) : issue?.message.startsWith('is ') ? issue.message : null;
  const what = own ?? issue?.message ?? 'is malformed';
  const detail = field === null ? `The body ${what}.` : own === null ? `${field}: ${what}.` : `${field} ${what}.`;
  return apiError.badRequest(detail.replace(/\.\.$/, '.'), field);
}

/** What follows the first unknown param's name: the next few by name, each cut short (a body may hold thousands). */
function unknownWords(keys: readonly string[]): string {
  const others = keys.slice(1);
  if (others.length === 0) return 'is not a known param';
  return `is not a known param, and neither ${others.length === 1 ? 'is' : 'are'} ${someOf(others)}`;
}
