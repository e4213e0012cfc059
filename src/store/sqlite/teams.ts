import type { Member, Team, TeamStore } from '../ports.js';
import { newId } from '../../domain/ids.js';
import type { Random } from '../../domain/random.js';
import { teamOperations } from '../operations/teams.js';
import type { Db } from './database.js';
import type { sqliteOperations } from './link-queries.js';
import { cachedRead } from './read-cache.js';

const TEAM = 't.id, t.name, t.created_at AS createdAt';

/** The SQLite TeamStore: reads and additions here, removals and changes as the shared operations (operations/teams.ts). */
export function sqliteTeams(db: Db, random: Random, perform: ReturnType<typeof sqliteOperations>): TeamStore {
  // Only while the team exists: one deleted meanwhile gains no member (and breaks no foreign key).
  const insertMember = db.prepare(
    `INSERT OR IGNORE INTO members (team_id, person_id, role, added_at)
     SELECT @teamId, @personId, @role, @at WHERE EXISTS (SELECT 1 FROM teams WHERE id = @teamId)`,
  );
  const insertTeam = db.prepare('INSERT INTO teams (id, name, created_at) VALUES (?, ?, ?)');
  const teamExists = db.prepare('SELECT 1 FROM teams WHERE id = ?').pluck();
  const spendInvitation = db.prepare(
    'DELETE FROM team_invitations WHERE team_id = ? AND email = (SELECT email FROM people WHERE id = ?)',
  );
  const addMember = db.transaction((teamId: string, personId: string, now: Date) => {
    if (insertMember.run({ teamId, personId, role: 'member', at: now.toISOString() }).changes === 0) {
      return teamExists.get(teamId) ? ('already' as const) : ('no_team' as const);
    }
    spendInvitation.run(teamId, personId);
    return 'added' as const;
  });
  const linkCount = db.prepare('SELECT link_count FROM teams WHERE id = ?').pluck();
  const byId = db.prepare(`SELECT ${TEAM} FROM teams t WHERE t.id = ?`);
  const member = db.prepare('SELECT 1 FROM members WHERE team_id = ? AND person_id = ?').pluck();
  // Every read or change of a link asks it.
  const isMember = cachedRead(
    db,
    10_000,
    (teamId: string, personId: string) => `${teamId} ${personId}`,
    (teamId: string, personId: string) => member.get(teamId, personId) !== undefined,
  );
  const firstPage = db.prepare(
    `SELECT ${TEAM} FROM teams t JOIN members m ON m.team_id = t.id WHERE m.person_id = ?
     ORDER BY t.name, t.id LIMIT ?`,
  );
  const nextPage = db.prepare(
    `SELECT ${TEAM} FROM teams t JOIN members m ON m.team_id = t.id WHERE m.person_id = ?
     AND (t.name > ? OR (t.name = ? AND t.id > ?)) ORDER BY t.name, t.id LIMIT ?`,
  );
  const members = db.prepare(
    `SELECT m.person_id AS personId, p.email, m.role, m.added_at AS addedAt FROM members m
     JOIN people p ON p.id = m.person_id WHERE m.team_id = ? ORDER BY m.role = 'owner' DESC, p.email`,
  );
  const addTeam = db.transaction((team: Team, ownerId: string) => {
    insertTeam.run(team.id, team.name, team.createdAt);
    insertMember.run({ teamId: team.id, personId: ownerId, role: 'owner', at: team.createdAt });
  });

  return {
    async add({ name, ownerId }, now) {
      const team: Team = { id: newId('team', random), name, createdAt: now.toISOString() };
      addTeam(team, ownerId);
      return team;
    },
    async get(id) {
      return (byId.get(id) as Team | undefined) ?? null;
    },
    async listForPerson(personId, { limit, after }) {
      const rows = after
        ? nextPage.all(personId, after[0], after[0], after[1], limit)
        : firstPage.all(personId, limit);
      return rows as Team[];
    },
    async isMember(teamId, personId) {
      return isMember(teamId, personId);
    },
    async addMember(teamId, personId, now) {
      return addMember(teamId, personId, now);
    },
    removeMember: perform(teamOperations.removeMember),
    makeOwner: perform(teamOperations.makeOwner),
    async members(teamId) {
      return members.all(teamId) as Member[];
    },
    async linkCount(teamId) {
      return (linkCount.get(teamId) as number | undefined) ?? null;
    },
    rename: perform(teamOperations.rename),
    delete: perform(teamOperations.delete),
  };
}
