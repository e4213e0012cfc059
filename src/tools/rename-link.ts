import { z } from 'zod';
import { codeParam, linkSchema, nameParam, linkIn } from './schemas.js';
import { defineTool } from './define-tool.js';
import { changesSentence } from './limit-words.js';
import { FAULT, firstFault, type InputChecks } from './faults.js';
import { changeableLink, checkNameFor } from './link-checks.js';

/**
 * A link the caller may change, in a state that takes a new name, then the name's rule (read ahead for a form,
 * whether the store would refuse it to the link's team). Answers the link's id and the name to store.
 */
const checkRename: InputChecks<{ code: string; name: string | null }, { id: string; name: string | null }> = async (
  { code, name },
  caller,
  ctx,
  faults,
) => {
  const link = await changeableLink(ctx, faults, caller, code, 'name');
  if (link === FAULT) return FAULT;
  const checked = await checkNameFor(ctx, faults, name, { teamId: link.teamId, linkId: link.id });
  return checked === FAULT ? FAULT : { id: link.id, name: checked };
};

export const renameLink = defineTool({
  name: 'renameLink',
  operation: 'renameLink',
  title: 'Rename a link',
  description: ({ publicUrl, limits }) =>
    `Sets, changes or removes (null) the short link name of a link, by code: the link is then also ${publicUrl}/<name>. ` +
    'The old name stops working at once and stays reserved for the team; ' +
    `${publicUrl}/<code> and its QR code keep working. Not possible while the link is flagged or disabled. ` +
    `${changesSentence(limits)} Returns the link.`,
  input: z.strictObject({ code: codeParam, name: nameParam }),
  output: linkSchema,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  errors: ['invalid_name', 'reserved_name', 'link_disabled', 'link_flagged', 'name_taken', 'limit_reached', 'outside_token_record'],
  takesIdempotencyKey: true,
  view: 'link-card',
  faults: checkRename,
  async run(input, caller, ctx, once) {
    const { id, name } = await firstFault((faults) => checkRename(input, caller, ctx, faults));
    const limits = await ctx.store.settings.limits();
    const toLink = await linkIn(ctx);
    return toLink(await ctx.store.links.rename(id, name, limits, ctx.clock.now(), once?.slot(toLink)));
  },
});
