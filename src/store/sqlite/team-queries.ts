import type { TeamQueries } from '../operations/team-queries.js';
import { accountSql } from '../sql/accounts.js';
import { teamSql } from '../sql/teams.js';
import type { Db } from './database.js';
import { prepareAll } from './prepare.js';

/**
 * SQLite's answers to the team operations (store/operations/teams.ts), run by `perform` (link-queries.ts) inside its
 * write transaction. The write lock is the whole file's, so the team and its links are already held.
 */
export function sqliteTeamQueries(db: Db): TeamQueries {
  const s = prepareAll(db, teamSql);
  const a = prepareAll(db, accountSql);
  return {
    lockedTeam: (teamId) => s.locked.get({ teamId }) ?? null,
    members: (teamId) => s.roles.all({ teamId }),
    deleteMember: (teamId, personId) => void s.deleteMember.run({ teamId, personId }),
    setRole: (teamId, personId, role) => void s.setRole.run({ teamId, personId, role }),
    setTeamName: (teamId, name) => void s.rename.run({ teamId, name }),
    lockedTeamLinks: (teamId) => s.lockedLinks.all({ teamId }),
    retireTeamNames: (teamId) => void s.retireNames.run({ teamId }),
    deleteTeamLinks: (teamId) => void s.deleteLinks.run({ teamId }),
    deleteTeam: (teamId) => void s.delete.run({ teamId }),
    teamsOf: (personId) => a.teamsOf.all({ personId }).map((m) => m.teamId),
    deletePerson: (personId) => a.deletePerson.run({ personId }).changes > 0,
  };
}
