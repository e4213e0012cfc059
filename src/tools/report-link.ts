import { REASON_MAX } from '../domain/reason.js';
import { z } from 'zod';
import { codeParam } from './schemas.js';
import { defineTool } from './define-tool.js';
import { outside } from './access.js';
import { linkNotFound } from '../domain/link-state.js';

export const reportLink = defineTool({
  name: 'reportLink',
  operation: null,
  title: 'Report a link',
  description:
    'Reports a short link (any team\'s, by its code) as harmful: phishing, malware, spam or abuse. When several ' +
    'people report the same link it is flagged until the service reviews it. Reports are read by the operator.',
  input: z.strictObject({
    code: codeParam,
    reason: z.string().min(1).max(REASON_MAX).meta({ description: 'What is wrong with the link.' }),
  }),
  output: z.object({ code: z.string(), reported: z.literal(true) }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  errors: ['outside_token_record'],
  takesIdempotencyKey: false,
  async run({ code, reason }, caller, ctx) {
    const link = await ctx.store.links.findByCode(code);
    if (!link) throw linkNotFound();
    if (caller.recordTeamId !== null && caller.recordTeamId !== link.teamId) throw outside();
    // Every report is kept for the operator; only established reporters count towards flagging (ports.ts).
    await ctx.store.moderation.report(link.id, caller.personId, reason, (await ctx.store.settings.limits()), ctx.clock.now());
    return { code, reported: true as const };
  },
});
