import type { Tool as McpTool } from '@modelcontextprotocol/server';
import type { Caller } from '../shared/caller.js';
import type { ToolContext } from '../tools/define-tool.js';

/** The tools whose descriptions say where the caller's teams' links are shown: those that make links or find teams. */
const SAYS_ADDRESSES = new Set(['myTeams', 'createLink', 'createLinks', 'teamLinks']);
/** Teams named in a description at most: a person in more learns the rest from each link's shortUrl. */
const NAMED_TEAMS = 20;

/**
 * tools/list for one caller: when any of their teams shows its links on its own domain (domains/directory.ts),
 * the tools that make links or find teams say which, so an assistant quotes the right address before a call answers
 * one. Teams are named by id, never by name: a name is anyone's text, and a description is read as instructions.
 * A caller whose teams all use PUBLIC_URL gets the list unchanged.
 */
export async function withTeamAddresses(tools: McpTool[], ctx: ToolContext, caller: Caller | undefined): Promise<McpTool[]> {
  const { directory } = ctx.domains;
  // Most services have no team on a domain: then no caller's teams are read at all.
  const shown = await directory.shownAtDomains();
  if (!caller || shown.size === 0) return tools;
  const teamIds =
    caller.recordTeamId !== null
      ? [caller.recordTeamId]
      : (await ctx.store.teams.listForPerson(caller.personId, { limit: NAMED_TEAMS, after: null })).map((team) => team.id);
  const addressOf = await directory.addresses();
  const own = teamIds.filter((id) => shown.has(id)).map((id) => `${id} at ${addressOf(id)}`);
  if (own.length === 0) return tools;
  const sentence =
    ` Short links are shown at their team's own domain where it has one (shortUrl and nameUrl say so): team ${own.join(', team ')};` +
    ` other teams' at ${ctx.config.publicUrl}.`;
  return tools.map((tool) => (SAYS_ADDRESSES.has(tool.name) ? { ...tool, description: `${tool.description ?? ''}${sentence}` } : tool));
}
