import type { Membership, TeamRole } from '../../domain/team-roles.js';
import type { LinkKeys } from '../operations/team-queries.js';
import type { Member, Team } from '../ports.js';
import { sql } from './statement.js';

const TEAM = 't.id, t.name, t.created_at AS "createdAt"';

type InTeam = { teamId: string };
type Found = { found: number };

/** Teams and their members: what the team operations ask (operations/team-queries.ts) and the TeamStore does. */
export const teamSql = {
  byId: sql<{ id: string }, Team>(`SELECT ${TEAM} FROM teams t WHERE t.id = :id`),
  /** Every change of the team's members and of the team itself starts from its locked row. */
  locked: sql<InTeam, Team>((d) => `SELECT ${TEAM} FROM teams t WHERE t.id = :teamId${d.forUpdate}`),
  exists: sql<InTeam, Found>('SELECT 1 AS found FROM teams WHERE id = :teamId'),
  /** The team, held against deletion until the transaction ends (PostgreSQL): a deletion under way finishes first. */
  held: sql<InTeam, Found>((d) => `SELECT 1 AS found FROM teams WHERE id = :teamId${d.forKeyShare}`),
  insert: sql<Team>('INSERT INTO teams (id, name, created_at) VALUES (:id, :name, :createdAt)'),
  rename: sql<InTeam & { name: string }>('UPDATE teams SET name = :name WHERE id = :teamId'),
  /** Its members go with it (ON DELETE CASCADE). Its links must be gone first. */
  delete: sql<InTeam>('DELETE FROM teams WHERE id = :teamId'),
  /**
   * Only while the team exists: one deleted meanwhile gains no member (rather than a foreign key failing). On
   * PostgreSQL the lock waits out a deletion under way, after which the row is gone and nothing is inserted.
   */
  insertMember: sql<InTeam & { personId: string; role: TeamRole; at: string }>(
    (d) => `INSERT INTO members (team_id, person_id, role, added_at)
     SELECT :teamId, :personId, :role, :at WHERE EXISTS (SELECT 1 FROM teams WHERE id = :teamId${d.forKeyShare})
     ON CONFLICT (team_id, person_id) DO NOTHING`,
  ),
  isMember: sql<InTeam & { personId: string }, Found>('SELECT 1 AS found FROM members WHERE team_id = :teamId AND person_id = :personId'),
  roles: sql<InTeam, Membership>('SELECT person_id AS "personId", role FROM members WHERE team_id = :teamId'),
  setRole: sql<InTeam & { personId: string; role: TeamRole }>(
    'UPDATE members SET role = :role WHERE team_id = :teamId AND person_id = :personId',
  ),
  deleteMember: sql<InTeam & { personId: string }>('DELETE FROM members WHERE team_id = :teamId AND person_id = :personId'),
  /** An invitation is spent once its person joins. */
  spendInvitation: sql<InTeam & { personId: string }>(
    'DELETE FROM team_invitations WHERE team_id = :teamId AND email = (SELECT email FROM people WHERE id = :personId)',
  ),
  /** By name, then id, in byte order; a page starts after the (name, id) of the last one (none: the first page). */
  forPerson: sql<{ personId: string; afterName: string | null; afterId: string | null; limit: number }, Team>(
    (d) => `SELECT ${TEAM} FROM teams t JOIN members m ON m.team_id = t.id WHERE m.person_id = :personId
     AND (${d.typed(':afterName', 'text')} IS NULL OR t.name${d.bytes} > :afterName OR (t.name = :afterName AND t.id${d.bytes} > :afterId))
     ORDER BY t.name${d.bytes}, t.id${d.bytes} LIMIT :limit`,
  ),
  /**
   * Owners first, then by email as SQLite's COLLATE NOCASE column sorts it: ASCII letters folded, then bytes
   * (lower() under "C" folds ASCII only, as NOCASE does).
   */
  members: sql<InTeam, Member>(
    (d) => `SELECT m.person_id AS "personId", p.email, m.role, m.added_at AS "addedAt" FROM members m
     JOIN people p ON p.id = m.person_id WHERE m.team_id = :teamId
     ORDER BY m.role = 'owner' DESC, ${d.name === 'postgres' ? `lower(p.email${d.bytes})` : 'p.email'}`,
  ),
  /** The team's links, in the order every process locks them (on PostgreSQL) before deleting the team. */
  lockedLinks: sql<InTeam, LinkKeys>((d) => `SELECT code, name FROM links WHERE team_id = :teamId ORDER BY seq${d.forUpdate}`),
  /** The names of deleted links are never issued again. */
  retireNames: sql<InTeam>(
    'UPDATE names SET link_id = NULL, retired = true WHERE link_id IN (SELECT id FROM links WHERE team_id = :teamId)',
  ),
  /** Their clicks, reports and reviews go with them; their codes stay taken. */
  deleteLinks: sql<InTeam>('DELETE FROM links WHERE team_id = :teamId'),
};
