import type { z } from 'zod';
import { ApiError } from '../errors.js';

/** The param at fault in a zod error, in the spec's notation: `links[3].name`, `limit`, or null for the body. */
export function fieldOf(error: z.ZodError, prefix = ''): string | null {
  const issue = error.issues[0];
  if (!issue) return null;
  // An unknown param is reported on its parent; name the param itself.
  const path = issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0] ?? ''] : issue.path;
  const text = path
    .map((part, i) => (typeof part === 'number' ? `[${part}]` : `${i === 0 ? '' : '.'}${String(part)}`))
    .join('');
  if (text === '') return prefix === '' ? null : prefix.replace(/\.$/, '');
  return `${prefix}${text}`;
}

/** 400 `bad_request` for a body or item that does not match its schema, naming the param at fault. */
export function badRequest(error: z.ZodError, prefix = ''): ApiError {
  const field = fieldOf(error, prefix);
  const issue = error.issues[0];
  const what = issue?.code === 'unrecognized_keys' ? 'is not a known param' : (issue?.message ?? 'is malformed');
  const detail = field === null ? `The body ${what}.` : `${field}: ${what}.`;
  return new ApiError('bad_request', detail.replace(/\.\.$/, '.'), field);
}
