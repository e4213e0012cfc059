import { z } from 'zod';
import { codeParam, linkSchema, toLink } from './schemas.js';
import { defineTool } from './define-tool.js';
import { linkToRead } from './access.js';
import { CODE_LENGTH } from '../domain/code.js';

export const linkByCode = defineTool({
  name: 'linkByCode',
  operation: 'getLink',
  title: 'Link by code',
  description: ({ publicUrl }) =>
    `Reads one link of your teams by its ${CODE_LENGTH}-character code (the part after ${publicUrl}/ in a short link). ` +
    "A deleted link, or one outside your teams, is not found. The result's text also names the link's short " +
    'addresses and QR code.',
  input: z.strictObject({ code: codeParam }),
  output: linkSchema,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  errors: [],
  takesIdempotencyKey: false,
  view: 'link-card',
  async run({ code }, caller, ctx) {
    return toLink(await linkToRead(ctx, caller, code));
  },
});
