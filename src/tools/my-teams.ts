import { z } from 'zod';
import { MAX_PAGE_SIZE } from '../domain/cursor.js';
import { afterParam, limitParam, pageOf } from './schemas.js';
import { defineTool } from './define-tool.js';
import { inNoTeam, noTeamYet, teamToRead } from './access.js';

const teamRow = z.object({ id: z.string().meta({ description: '`team_…`' }), name: z.string() });

export const myTeams = defineTool({
  name: 'myTeams',
  operation: 'listTeams',
  title: 'My teams',
  description:
    "Lists the teams of the signed-in person, by name. Every link belongs to one team: call this first to find the " +
    `\`team\` id that teamLinks, createLink and createLinks need. Pages of up to ${MAX_PAGE_SIZE}; pass \`next\` back as \`after\`.`,
  input: z.strictObject({ limit: limitParam, after: afterParam }),
  output: pageOf(teamRow),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  errors: ['cursor_mismatch'],
  takesIdempotencyKey: false,
  async run({ limit, after }, caller, ctx) {
    const params = { limit };
    const key = ctx.cursors.read<[string, string]>('listTeams', params, after);
    // A token limited to its team sees only that team: outside it, it reads what a signed-out visitor reads.
    const teams =
      caller.recordTeamId === null
        ? await ctx.store.teams.listForPerson(caller.personId, { limit: limit + 1, after: key })
        : key === null
          ? [await teamToRead(ctx, caller, caller.recordTeamId)]
          : [];
    const rows = teams.slice(0, limit).map(({ id, name }) => ({ id, name }));
    const last = rows.at(-1);
    const next = teams.length > limit && last ? ctx.cursors.make('listTeams', params, [last.name, last.id]) : null;
    return { data: rows, next };
  },
  // An empty first page of a token that is not limited to a team: the person is in none.
  note: async (page, caller, ctx) =>
    page.data.length === 0 && caller.recordTeamId === null && (await inNoTeam(ctx, caller.personId)) ? noTeamYet(ctx.config.publicUrl) : null,
});
