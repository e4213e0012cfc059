import type pg from 'pg';
import type { Membership } from '../../domain/team-roles.js';
import type { Team } from '../ports.js';
import type { LinkKeys, TeamQueries } from '../operations/team-queries.js';
import { LONG_STATEMENT_MS } from './database.js';
import { row, rows, type Queryable } from './query.js';

type Answers = { [K in keyof TeamQueries]: (...args: Parameters<TeamQueries[K]>) => Promise<ReturnType<TeamQueries[K]>> };

/**
 * PostgreSQL's answers to the team operations (store/operations/teams.ts), on the transaction's connection. The
 * team's row (FOR UPDATE) orders every change of its members and of the team itself, as it orders link creations
 * (link-queries.ts, lockTeam); its links' rows order the team's deletion after changes of them under way.
 */
export function pgTeamQueries(client: Queryable): Answers {
  const run = async (text: string, values: unknown[]) => void (await client.query(text, values));
  // Deleting a team reads, retires and deletes all its links (their clicks with them) in one statement each, which
  // for a team an operator let grow big may take longer than a request's statement timeout: these get minutes.
  // (pg reads query_timeout from a query's config too; its types do not say so.)
  const long = async <R extends object = object>(text: string, values: unknown[]): Promise<R[]> =>
    (await client.query<R>({ text, values, query_timeout: LONG_STATEMENT_MS } as pg.QueryConfig)).rows;
  return {
    lockedTeam: (teamId) => row<Team>(client, 'SELECT id, name, created_at AS "createdAt" FROM teams WHERE id = $1 FOR UPDATE', [teamId]),
    members: (teamId) => rows<Membership>(client, 'SELECT person_id AS "personId", role FROM members WHERE team_id = $1', [teamId]),
    deleteMember: (teamId, personId) => run('DELETE FROM members WHERE team_id = $1 AND person_id = $2', [teamId, personId]),
    setRole: (teamId, personId, role) => run('UPDATE members SET role = $1 WHERE team_id = $2 AND person_id = $3', [role, teamId, personId]),
    setTeamName: (teamId, name) => run('UPDATE teams SET name = $1 WHERE id = $2', [name, teamId]),
    lockedTeamLinks: (teamId) =>
      long<LinkKeys>('SELECT code, name FROM links WHERE team_id = $1 ORDER BY seq FOR UPDATE', [teamId]),
    retireTeamNames: (teamId) =>
      long('UPDATE names SET link_id = NULL, retired = true WHERE link_id IN (SELECT id FROM links WHERE team_id = $1)', [teamId]).then(() => undefined),
    deleteTeamLinks: (teamId) => long('DELETE FROM links WHERE team_id = $1', [teamId]).then(() => undefined),
    // Its members go with it (ON DELETE CASCADE).
    deleteTeam: (teamId) => run('DELETE FROM teams WHERE id = $1', [teamId]),
  };
}
