import { z } from 'zod';
import { teamParam } from './schemas.js';
import { defineTool } from './define-tool.js';
import { teamToRead } from './access.js';

const tagRow = z.object({ tag: z.string(), links: z.number().int().meta({ description: 'The links carrying it.' }) });

export const teamTags = defineTool({
  name: 'teamTags',
  operation: 'listTags',
  title: "A team's tags",
  description:
    "Lists the tags of a team's links, by tag, each with how many links carry it: to find a campaign's links, pass " +
    'a tag to teamLinks as `tag`.',
  input: z.strictObject({ team: teamParam }),
  output: z.object({ data: z.array(tagRow) }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  errors: [],
  takesIdempotencyKey: false,
  async run({ team }, caller, ctx) {
    await teamToRead(ctx, caller, team);
    return { data: await ctx.store.links.tags(team) };
  },
});
