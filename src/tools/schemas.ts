import { z } from 'zod';
import { CODE_LENGTH } from '../domain/code.js';
import { MAX_PAGE_SIZE } from '../domain/cursor.js';
import { MAX_DESTINATION_LENGTH_TEXT } from '../domain/destination.js';
import { LINK_STATES } from '../domain/link-state.js';
import { MAX_NAME_LENGTH, MIN_NAME_LENGTH, NAME_PATTERN_SOURCE } from '../domain/link-name.js';
import { NOTE_MAX } from '../domain/note.js';
import type { DomainDirectory } from '../domains/directory.js';
import type { LinkRecord } from '../store/ports.js';

/**
 * Schemas shared by several tools. Input schemas check only shapes and types (a failure is 400 `bad_request`);
 * the spec's field rules (name, note, destination) are checked by the domain so each has its own error code. The
 * rules still appear in the JSON Schema, for callers and assistants to read.
 */
export const teamParam = z.string().regex(/^team_/).meta({ description: 'The team, `team_…`.' });

export const codeParam = z
  .string()
  .length(CODE_LENGTH)
  .meta({ description: `The link's ${CODE_LENGTH}-character code.` });

export const destinationParam = z.string().meta({
  description:
    `An https address of at most ${MAX_DESTINATION_LENGTH_TEXT} characters; not an IP address or private network (where the ` +
    'operator allows private destinations, http and intranet addresses too), not another link shortener, not blocked and ' +
    'not on an unsafe-site list.',
  format: 'uri',
});

export const nameParam = z.string().nullable().meta({
  description: `The short link name: ${MIN_NAME_LENGTH} to ${MAX_NAME_LENGTH} of a-z 0-9 - _; null for none.`,
  pattern: NAME_PATTERN_SOURCE,
});

export const noteParam = z.string().nullable().meta({
  description: `A note of 0 to ${NOTE_MAX} letters, numbers, spaces and - _ , . ' ( ) & ! ? : ; null for none.`,
  maxLength: NOTE_MAX,
});

export const limitParam = z.number().int().min(1).max(MAX_PAGE_SIZE).default(50).meta({
  description: `Rows per page, 1 to ${MAX_PAGE_SIZE}.`,
});

export const afterParam = z.string().nullable().default(null).meta({
  description: 'The `next` of the previous page, with the same other params; null for the first page.',
});

export const linkStateSchema = z.enum(LINK_STATES);

export const linkSchema = z
  .object({
    id: z.string().meta({ description: '`link_…`' }),
    code: z.string().meta({ description: `${CODE_LENGTH} characters; the short link is the service's address, then /<code>.` }),
    name: z.string().nullable(),
    destination: z.string().meta({ format: 'uri' }),
    note: z.string().nullable(),
    state: linkStateSchema,
    createdAt: z.string().meta({ format: 'date-time' }),
    changedAt: z.string().nullable().meta({ format: 'date-time' }),
    // The service's additions to v1 (docs/behaviour.md, "Link options"), after the spec's eight fields.
    shortUrl: z
      .string()
      .meta({ description: "The short link by code: on the team's primary domain when it has one, else the service's address; then /<code>.", format: 'uri' }),
    nameUrl: z.string().nullable().meta({ description: 'The short link by name, or null when the link has none.', format: 'uri' }),
    expiresAt: z.string().nullable().meta({ description: 'When the link ends (visitors then get 410), or null for never.', format: 'date-time' }),
    maxClicks: z.number().int().nullable().meta({ description: 'After this many counted clicks the link ends (410); null for no cap.' }),
    hasPassword: z.boolean().meta({ description: 'Whether visitors must give a password first.' }),
    tags: z.array(z.string()).meta({ description: 'Sorted.' }),
    forwardQuery: z.boolean().meta({ description: "Whether a visitor's query string is added to the destination's." }),
  });

export type Link = z.output<typeof linkSchema>;

/**
 * The one public shape of a link, for every surface: the stored link, and its addresses at `base` (PUBLIC_URL, or its
 * team's primary domain).
 */
export function toLink(record: LinkRecord, base: string): Link {
  return {
    id: record.id,
    code: record.code,
    name: record.name,
    destination: record.destination,
    note: record.note,
    state: record.state,
    createdAt: record.createdAt,
    changedAt: record.changedAt,
    shortUrl: `${base}/${record.code}`,
    nameUrl: record.name === null ? null : `${base}/${record.name}`,
    expiresAt: record.expiresAt,
    maxClicks: record.maxClicks,
    hasPassword: record.passwordHash !== null,
    tags: record.tags,
    forwardQuery: record.forwardQuery,
  };
}

/**
 * toLink at each team's address of the moment (its primary domain, or PUBLIC_URL: domains/directory.ts): what a
 * tool answers a link as, and keeps as an idempotent call's answer.
 */
export async function linkIn(ctx: { domains: { directory: Pick<DomainDirectory, 'addresses'> } }): Promise<(record: LinkRecord) => Link> {
  const addressOf = await ctx.domains.directory.addresses();
  return (record) => toLink(record, addressOf(record.teamId));
}

/** `{ data: [...], next }`: a page of results. */
export function pageOf<T extends z.ZodType>(row: T) {
  return z.object({
    data: z.array(row),
    next: z.string().nullable().meta({ description: 'Send as `after` for the next page; null on the last.' }),
  });
}
