import { REASON_MAX } from '../domain/reason.js';
import { z } from 'zod';
import { codeParam, linkSchema, linkIn } from './schemas.js';
import { defineTool } from './define-tool.js';
import { linkToChange } from './access.js';

export const askForReview = defineTool({
  name: 'askForReview',
  operation: null,
  title: 'Ask for a review of a flagged link',
  description:
    "A flagged link can't change its destination or name until the service reviews it. This asks for that review, " +
    'with an optional reason for the reviewer. Only for flagged links of your teams. Returns the link.',
  input: z.strictObject({
    code: codeParam,
    reason: z.string().max(REASON_MAX).nullable().default(null).meta({ description: 'Why the link is fine, for the reviewer.' }),
  }),
  output: linkSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  errors: ['conflict', 'outside_token_record'],
  takesIdempotencyKey: false,
  async run({ code, reason }, caller, ctx) {
    const link = await linkToChange(ctx, caller, code);
    return (await linkIn(ctx))(await ctx.store.moderation.askForReview(link.id, caller.personId, reason, ctx.clock.now()));
  },
});
