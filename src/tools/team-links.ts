import { z } from 'zod';
import { MAX_PAGE_SIZE } from '../domain/cursor.js';
import { TAG_MAX_LENGTH } from '../domain/link-options.js';
import { afterParam, limitParam, linkSchema, linkStateSchema, pageOf, teamParam, linkIn } from './schemas.js';
import { defineTool } from './define-tool.js';
import { teamToRead } from './access.js';
import { callsSentence } from './limit-words.js';

export const teamLinks = defineTool({
  name: 'teamLinks',
  operation: 'listLinks',
  title: "A team's links",
  description: ({ limits }) =>
    "Lists and searches a team's links, newest first. `q` finds links whose code, short link name, destination, " +
    'note or a tag contains it (any case); `tag` keeps only links carrying that tag; `state` keeps only active, ' +
    `flagged or disabled links. Pages of up to ${MAX_PAGE_SIZE}; pass ` +
    `\`next\` back as \`after\` with the same other params; each page is one call. ${callsSentence(limits)} The ` +
    "result's text also names each link's short addresses and QR code.",
  input: z.strictObject({
    team: teamParam,
    state: linkStateSchema.nullable().default(null),
    q: z
      .string()
      .max(2048)
      .regex(/^[^\u0000-\u001f\u007f]*$/, 'must not hold control characters')
      .nullable()
      .default(null)
      .meta({ description: 'Text to find; null for all.' }),
    tag: z.string().max(TAG_MAX_LENGTH).nullable().default(null).meta({ description: 'Only links carrying this tag; null for all.' }),
    limit: limitParam,
    after: afterParam,
  }),
  output: pageOf(linkSchema),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  errors: ['cursor_mismatch'],
  takesIdempotencyKey: false,
  view: 'link-list',
  async run({ team, state, q, tag, limit, after }, caller, ctx) {
    await teamToRead(ctx, caller, team);
    // tag only when given: a cursor made before tags existed still pages the same list.
    const params = tag === null ? { team, state, q, limit } : { team, state, q, tag, limit };
    const afterSeq = ctx.cursors.read<number>('listLinks', params, after);
    const links = await ctx.store.links.list(team, { state, q, tag }, { limit: limit + 1, after: afterSeq });
    const page = links.slice(0, limit);
    const last = page.at(-1);
    const next = links.length > limit && last ? ctx.cursors.make('listLinks', params, last.seq) : null;
    return { data: page.map(await linkIn(ctx)), next };
  },
});
