import type { Member, Team, TeamStore } from '../ports.js';
import { newId } from '../../domain/ids.js';
import type { Random } from '../../domain/random.js';
import type { PgPool } from './database.js';
import { teamOperations } from '../operations/teams.js';
import { silentAccessWrite, type AccessWrite } from './access-writes.js';
import { pgOperations, silentNews } from './operations.js';
import { changed, row, rows } from './query.js';
import { BYTES } from './rows.js';

const TEAM = 't.id, t.name, t.created_at AS "createdAt"';

// Only while the team exists: the lock waits out a deletion under way, after which the row is gone and nothing is
// inserted (rather than a foreign key failing).
const INSERT_MEMBER = `INSERT INTO members (team_id, person_id, role, added_at)
  SELECT $1, $2, $3, $4 WHERE EXISTS (SELECT 1 FROM teams WHERE id = $1 FOR KEY SHARE)
  ON CONFLICT (team_id, person_id) DO NOTHING`;

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
        await client.query('INSERT INTO teams (id, name, created_at) VALUES ($1, $2, $3)', [team.id, name, team.createdAt]);
        await client.query(INSERT_MEMBER, [team.id, ownerId, 'owner', team.createdAt]);
      });
      return team;
    },
    async get(id) {
      return row<Team>(pool, `SELECT ${TEAM} FROM teams t WHERE t.id = $1`, [id]);
    },
    async listForPerson(personId, { limit, after }) {
      // By name, then id, in byte order as SQLite; a page starts after the (name, id) of the last one.
      return rows<Team>(
        pool,
        `SELECT ${TEAM} FROM teams t JOIN members m ON m.team_id = t.id WHERE m.person_id = $1
         AND ($2::text IS NULL OR t.name ${BYTES} > $2 OR (t.name = $2 AND t.id ${BYTES} > $3))
         ORDER BY t.name ${BYTES}, t.id ${BYTES} LIMIT $4`,
        [personId, after?.[0] ?? null, after?.[1] ?? null, limit],
      );
    },
    async isMember(teamId, personId) {
      return (await row(pool, 'SELECT 1 FROM members WHERE team_id = $1 AND person_id = $2', [teamId, personId])) !== null;
    },
    async addMember(teamId, personId, now) {
      return accessWrite(async (client) => {
        if ((await changed(client, INSERT_MEMBER, [teamId, personId, 'member', now.toISOString()])) === 0) {
          return (await row(client, 'SELECT 1 FROM teams WHERE id = $1', [teamId])) ? 'already' : 'no_team';
        }
        await client.query(
          'DELETE FROM team_invitations WHERE team_id = $1 AND email = (SELECT email FROM people WHERE id = $2)',
          [teamId, personId],
        );
        return 'added';
      });
    },
    removeMember: perform(teamOperations.removeMember),
    makeOwner: perform(teamOperations.makeOwner),
    async members(teamId) {
      // Owners first, then by email as SQLite's COLLATE NOCASE column sorts it: ASCII letters folded, then bytes
      // (lower() under "C" folds ASCII only, as NOCASE does).
      return rows<Member>(
        pool,
        `SELECT m.person_id AS "personId", p.email, m.role, m.added_at AS "addedAt" FROM members m
         JOIN people p ON p.id = m.person_id WHERE m.team_id = $1
         ORDER BY m.role = 'owner' DESC, lower(p.email ${BYTES})`,
        [teamId],
      );
    },
    async linkCount(teamId) {
      return (await row<{ n: number }>(pool, 'SELECT link_count AS n FROM teams WHERE id = $1', [teamId]))?.n ?? null;
    },
    rename: perform(teamOperations.rename),
    delete: perform(teamOperations.delete),
  };
}
