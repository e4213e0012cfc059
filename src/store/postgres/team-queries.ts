import type pg from 'pg';
import type { TeamQueries } from '../operations/team-queries.js';
import type { Statement } from '../sql/statement.js';
import { accountSql } from '../sql/accounts.js';
import { teamSql } from '../sql/teams.js';
import { LONG_STATEMENT_MS } from './database.js';
import { changed, query, row, rows, run, type Queryable } from './query.js';

type Answers = { [K in keyof TeamQueries]: (...args: Parameters<TeamQueries[K]>) => Promise<ReturnType<TeamQueries[K]>> };

/**
 * PostgreSQL's answers to the team operations (store/operations/teams.ts), on the transaction's connection. The
 * team's row (FOR UPDATE) orders every change of its members and of the team itself, as it orders link creations
 * (link-queries.ts, lockTeam); its links' rows order the team's deletion after changes of them under way.
 */
export function pgTeamQueries(client: Queryable): Answers {
  // Deleting a team reads, retires and deletes all its links (their clicks with them) in one statement each, which
  // for a team an operator let grow big may take longer than a request's statement timeout: these get minutes.
  // (pg reads query_timeout from a query's config too; its types do not say so.)
  const long = async <P extends object, R>(statement: Statement<P, R>, params: P): Promise<R[]> =>
    (await client.query({ ...query(statement, params), query_timeout: LONG_STATEMENT_MS } as pg.QueryConfig)).rows as R[];
  return {
    lockedTeam: (teamId) => row(client, teamSql.locked, { teamId }),
    members: (teamId) => rows(client, teamSql.roles, { teamId }),
    deleteMember: (teamId, personId) => run(client, teamSql.deleteMember, { teamId, personId }),
    setRole: (teamId, personId, role) => run(client, teamSql.setRole, { teamId, personId, role }),
    setTeamName: (teamId, name) => run(client, teamSql.rename, { teamId, name }),
    lockedTeamLinks: (teamId) => long(teamSql.lockedLinks, { teamId }),
    retireTeamNames: (teamId) => long(teamSql.retireNames, { teamId }).then(() => undefined),
    deleteTeamLinks: (teamId) => long(teamSql.deleteLinks, { teamId }).then(() => undefined),
    deleteTeam: (teamId) => run(client, teamSql.delete, { teamId }),
    teamsOf: async (personId) => (await rows(client, accountSql.teamsOf, { personId })).map((m) => m.teamId),
    deletePerson: async (personId) => (await changed(client, accountSql.deletePerson, { personId })) > 0,
  };
}
