import { apiError } from '../errors.js';
import { linkNotFound } from '../domain/link-state.js';
import { teamNotFound } from '../domain/team-roles.js';
import type { LinkRecord, Team } from '../store/ports.js';
import type { ToolContext } from './define-tool.js';
import type { Caller } from '../shared/caller.js';

/**
 * Who may reach what. A team or link outside the caller's teams answers 404 `not_found` (never 403, so its
 * existence does not leak). A token limited to its team reads outside it only what a signed-out visitor reads
 * (nothing: 404) and changes nothing outside it (403 `outside_token_record`, once we know the person could).
 */
export async function teamToRead(ctx: ToolContext, caller: Caller, teamId: string): Promise<Team> {
  if (caller.recordTeamId !== null && caller.recordTeamId !== teamId) throw teamNotFound();
  return memberTeam(ctx, caller, teamId);
}

export async function teamToChange(ctx: ToolContext, caller: Caller, teamId: string): Promise<Team> {
  const team = await memberTeam(ctx, caller, teamId);
  if (caller.recordTeamId !== null && caller.recordTeamId !== teamId) throw outside();
  return team;
}

export async function linkToRead(ctx: ToolContext, caller: Caller, code: string): Promise<LinkRecord> {
  const link = await ctx.store.links.findByCode(code);
  if (!link || (caller.recordTeamId !== null && caller.recordTeamId !== link.teamId)) throw linkNotFound();
  if (!(await ctx.store.teams.isMember(link.teamId, caller.personId))) throw linkNotFound();
  return link;
}

export async function linkToChange(ctx: ToolContext, caller: Caller, code: string): Promise<LinkRecord> {
  const link = await ctx.store.links.findByCode(code);
  if (!link || !(await ctx.store.teams.isMember(link.teamId, caller.personId))) throw linkNotFound();
  if (caller.recordTeamId !== null && caller.recordTeamId !== link.teamId) throw outside();
  return link;
}

async function memberTeam(ctx: ToolContext, caller: Caller, teamId: string): Promise<Team> {
  const team = await ctx.store.teams.get(teamId);
  if (team && (await ctx.store.teams.isMember(teamId, caller.personId))) return team;
  // Still 404 not_found: a person in no team has no team id to give, so the answer says where to get one.
  if (await inNoTeam(ctx, caller.personId)) throw apiError.notFound(noTeamYet(ctx.config.publicUrl), 'team');
  throw teamNotFound();
}

/** Whether the person belongs to no team yet, and so can make and list no link. */
export async function inNoTeam(ctx: ToolContext, personId: string): Promise<boolean> {
  return (await ctx.store.teams.listForPerson(personId, { limit: 1, after: null })).length === 0;
}

/** What a person in no team is told by the tools that need one: where to make one or accept an invitation. */
export function noTeamYet(publicUrl: string): string {
  return `You are in no team yet: make one, or accept an invitation to one, at ${publicUrl}/teams.`;
}

export function outside() {
  return apiError.outsideTokenRecord("The token works within its own team only; this reaches outside it.");
}
