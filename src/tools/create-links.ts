import { z } from 'zod';
import { toApiError } from '../errors.js';
import { linkSchema, teamParam } from './schemas.js';
import { defineTool } from './define-tool.js';
import { teamToChange } from './access.js';
import { makeLink, newLinkFields } from './create-link.js';
import { parseParams } from './bad-request.js';
import { callsSentence, creationLimitsSentence } from './limit-words.js';

export const MAX_LINKS_PER_CALL = 50;

const item = z.strictObject(newLinkFields);
const itemJsonSchema = z.toJSONSchema(item, { io: 'input', target: 'draft-2020-12' });
delete itemJsonSchema.$schema;

const result = z.object({
  link: linkSchema.nullable(),
  status: z.number().int().nullable(),
  code: z.string().nullable(),
  message: z.string().nullable(),
});

export const createLinks = defineTool({
  name: 'createLinks',
  operation: 'createLinks',
  title: 'Create up to 50 short links',
  description: ({ limits }) =>
    `Makes up to ${MAX_LINKS_PER_CALL} links in one team, in order, in one call. Each item passes or fails on its ` +
    'own: a made item has its `link` and status 200; a failed one has `link` null and the status, code and message ' +
    'createLink would have answered (for example 409 team_full once the team is full, or 429 limit_reached). ' +
    `${creationLimitsSentence(limits)} ${callsSentence(limits)} The call itself answers with every result; its ` +
    "text also names each made link's short addresses and QR code.",
  input: z.strictObject({
    team: teamParam,
    // Items are checked one by one (a malformed item fails alone), so the array takes any value here and the
    // item's schema is shown to callers through the JSON Schema.
    links: z.array(z.unknown().meta(itemJsonSchema)).min(1).max(MAX_LINKS_PER_CALL).meta({
      description: `1 to ${MAX_LINKS_PER_CALL} links to make.`,
    }),
  }),
  output: z.object({ results: z.array(result) }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  errors: ['outside_token_record'],
  takesIdempotencyKey: true,
  async run({ team: teamId, links }, caller, ctx) {
    const team = await teamToChange(ctx, caller, teamId);
    const results: Array<z.output<typeof result>> = [];
    for (const [index, raw] of links.entries()) {
      const prefix = `links[${index}].`;
      try {
        const made = await makeLink(ctx, team, parseParams(item, raw, prefix), prefix);
        results.push({ link: made, status: 200, code: null, message: null });
      } catch (error) {
        const failed = toApiError(error);
        if (failed.code === 'internal_server_error') throw error;
        results.push({ link: null, status: failed.status, code: failed.code, message: failed.detail });
      }
    }
    return { results };
  },
});
