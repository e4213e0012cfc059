import type { Team, TeamStore } from '../ports.js';
import { newId } from '../../domain/ids.js';
import type { Random } from '../../domain/random.js';
import type { PgPool } from './database.js';
import { teamOperations } from '../operations/teams.js';
import { linkSql } from '../sql/links.js';
import { teamSql } from '../sql/teams.js';
import { silentAccessWrite, type AccessWrite } from './access-writes.js';
import { pgOperations, silentNews } from './operations.js';
import { changed, row, rows, run } from './query.js';

/**
 * Teams and their members. Making a team and adding a member change access: they run as `accessWrite`, which tells
 * every process (memberships are kept in memory in front of this store, index.ts). Removals, renames and
 * deletions are the shared operations (operations/teams.ts), run by `perform`, which tells every process too.
 */
export function pgTeams(
  pool: PgPool,
  random: Random,
  accessWrite: AccessWrite = silentAccessWrite(pool),
  perform = pgOperations(pool, silentNews, accessWrite),
): TeamStore {
  return {
    async add({ name, ownerId }, now) {
      const team: Team = { id: newId('team', random), name, createdAt: now.toISOString() };
      // The team never exists without its owner.
      await accessWrite(async (client) => {
        await run(client, teamSql.insert, team);
        await run(client, teamSql.insertMember, { teamId: team.id, personId: ownerId, role: 'owner', at: team.createdAt });
      });
      return team;
    },
    async get(id) {
      return row(pool, teamSql.byId, { id });
    },
    async listForPerson(personId, { limit, after }) {
      return rows(pool, teamSql.forPerson, { personId, afterName: after?.[0] ?? null, afterId: after?.[1] ?? null, limit });
    },
    async isMember(teamId, personId) {
      return (await row(pool, teamSql.isMember, { teamId, personId })) !== null;
    },
    async addMember(teamId, personId, now) {
      return accessWrite(async (client) => {
        if ((await changed(client, teamSql.insertMember, { teamId, personId, role: 'member', at: now.toISOString() })) === 0) {
          return (await row(client, teamSql.exists, { teamId })) ? 'already' : 'no_team';
        }
        await run(client, teamSql.spendInvitation, { teamId, personId });
        return 'added';
      });
    },
    removeMember: perform(teamOperations.removeMember),
    makeOwner: perform(teamOperations.makeOwner),
    async members(teamId) {
      return rows(pool, teamSql.members, { teamId });
    },
    async linkCount(teamId) {
      return (await row(pool, linkSql.liveLinks, { teamId }))?.n ?? null;
    },
    rename: perform(teamOperations.rename),
    delete: perform(teamOperations.delete),
  };
}
