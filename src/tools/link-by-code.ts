import { z } from 'zod';
import { codeParam, linkSchema, linkIn } from './schemas.js';
import { defineTool } from './define-tool.js';
import { linkToRead } from './access.js';
import { apiError } from '../errors.js';
import { CODE_LENGTH, looksLikeCode } from '../domain/code.js';

/**
 * Where a caller who sent a link's name instead of its code finds the link: names are what people remember, so
 * the mistake is common, and a bare "wrong length" or "not found" leaves them no next step.
 */
const BY_NAME = "to find a link by its name, search the team's links for it: listLinks with q (teamLinks for an assistant)";

export const linkByCode = defineTool({
  name: 'linkByCode',
  operation: 'getLink',
  title: 'Link by code',
  description: ({ publicUrl }) =>
    `Reads one link of your teams by its ${CODE_LENGTH}-character code (the part after ${publicUrl}/ in a short link). ` +
    "A deleted link, or one outside your teams, is not found. The result's text also names the link's short " +
    'addresses and QR code.',
  input: z.strictObject({
    // The same param as codeParam, with words that say what a code is when the caller sent a name.
    code: z
      .string()
      .length(CODE_LENGTH, { error: `is a link's ${CODE_LENGTH}-character code, not its name; ${BY_NAME}` })
      .meta(codeParam.meta()!),
  }),
  output: linkSchema,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  errors: [],
  takesIdempotencyKey: false,
  view: 'link-card',
  async run({ code }, caller, ctx) {
    // A 7-character name (`go-docs`) is never a code, which has no `-` or `_` and an uppercase letter: still the
    // spec's 404, in words that point to the name's way.
    if (!looksLikeCode(code)) {
      throw apiError.notFound(`No link has that code: codes are ${CODE_LENGTH} characters of A-Z, a-z and 0-9; ${BY_NAME}.`, 'code');
    }
    return (await linkIn(ctx))(await linkToRead(ctx, caller, code));
  },
});
