import { z } from 'zod';
import { ApiError, toApiError } from '../errors.js';
import { MAX_LINKS_PER_CALL } from '../domain/limits.js';
import type { CreateOutcome, LinkRecord, NewLink, Team } from '../store/ports.js';
import { linkIn, linkSchema, teamParam, type Link } from './schemas.js';
import { defineTool, type ToolContext } from './define-tool.js';
import { teamToChange } from './access.js';
import { newLinkFields } from './create-link.js';
import { firstFault } from './faults.js';
import { checkNewLink } from './link-checks.js';
import { parseParams } from './bad-request.js';
import { callsSentence, creationLimitsSentence } from './limit-words.js';

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
  title: `Create up to ${MAX_LINKS_PER_CALL} short links`,
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
  view: 'link-card',
  async run({ team: teamId, links }, caller, ctx, once) {
    const team = await teamToChange(ctx, caller, teamId);
    // Each item's own rules first, one by one, outside the store's transaction (the destination checks wait on the
    // network); then the store makes the items that passed, in order, in one transaction with the call's answer.
    const checked: Array<NewLink | ApiError> = [];
    for (const [index, raw] of links.entries()) checked.push(await check(ctx, team, raw, `links[${index}].`));
    const passed = checked.filter((outcome): outcome is NewLink => !(outcome instanceof ApiError));
    const toLink = await linkIn(ctx);
    const answer = (made: readonly CreateOutcome[]) => {
      let next = 0;
      return { results: checked.map((outcome) => resultOf(outcome instanceof ApiError ? outcome : made[next++]!, toLink)) };
    };
    if (passed.length === 0) return answer([]);
    const limits = await ctx.store.settings.limits();
    return answer(await ctx.store.links.createMany(passed, limits, ctx.clock.now(), once?.slot(answer)));
  },
});

/** The item checked as createLink checks its params, or the refusal createLink would have answered. */
async function check(ctx: ToolContext, team: Team, raw: unknown, prefix: string): Promise<NewLink | ApiError> {
  try {
    const input = parseParams(item, raw, prefix);
    return await firstFault((faults) => checkNewLink(ctx, faults, team, input, prefix));
  } catch (error) {
    const failed = toApiError(error);
    if (failed.code === 'internal_server_error') throw error;
    return failed;
  }
}

function resultOf(outcome: CreateOutcome, toLink: (record: LinkRecord) => Link): z.output<typeof result> {
  if (outcome instanceof ApiError) return { link: null, status: outcome.status, code: outcome.code, message: outcome.detail };
  return { link: toLink(outcome), status: 200, code: null, message: null };
}
