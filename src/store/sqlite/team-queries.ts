import type { Membership } from '../../domain/team-roles.js';
import type { Team } from '../ports.js';
import type { LinkKeys, TeamQueries } from '../operations/team-queries.js';
import type { Db } from './database.js';

/**
 * SQLite's answers to the team operations (store/operations/teams.ts), run by `perform` (link-queries.ts) inside its
 * write transaction. The write lock is the whole file's, so the team and its links are already held.
 */
export function sqliteTeamQueries(db: Db): TeamQueries {
  const team = db.prepare('SELECT id, name, created_at AS createdAt FROM teams WHERE id = ?');
  const members = db.prepare('SELECT person_id AS personId, role FROM members WHERE team_id = ?');
  const deleteMember = db.prepare('DELETE FROM members WHERE team_id = ? AND person_id = ?');
  const setRole = db.prepare('UPDATE members SET role = ? WHERE team_id = ? AND person_id = ?');
  const setName = db.prepare('UPDATE teams SET name = ? WHERE id = ?');
  const links = db.prepare('SELECT code, name FROM links WHERE team_id = ? ORDER BY seq');
  const retireNames = db.prepare(
    'UPDATE names SET link_id = NULL, retired = 1 WHERE link_id IN (SELECT id FROM links WHERE team_id = ?)',
  );
  const deleteLinks = db.prepare('DELETE FROM links WHERE team_id = ?');
  // Its members go with it (ON DELETE CASCADE).
  const deleteTeam = db.prepare('DELETE FROM teams WHERE id = ?');
  return {
    lockedTeam: (teamId) => (team.get(teamId) as Team | undefined) ?? null,
    members: (teamId) => members.all(teamId) as Membership[],
    deleteMember: (teamId, personId) => void deleteMember.run(teamId, personId),
    setRole: (teamId, personId, role) => void setRole.run(role, teamId, personId),
    setTeamName: (teamId, name) => void setName.run(name, teamId),
    lockedTeamLinks: (teamId) => links.all(teamId) as LinkKeys[],
    retireTeamNames: (teamId) => void retireNames.run(teamId),
    deleteTeamLinks: (teamId) => void deleteLinks.run(teamId),
    deleteTeam: (teamId) => void deleteTeam.run(teamId),
  };
}
