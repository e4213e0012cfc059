import type { Invitation } from '../ports.js';
import { byEmail } from './people.js';
import { sql } from './statement.js';

const INVITATION = `i.team_id AS "teamId", t.name AS "teamName", i.email, p.email AS "invitedBy", i.created_at AS "createdAt"
  FROM team_invitations i JOIN teams t ON t.id = i.team_id LEFT JOIN people p ON p.id = i.invited_by`;

type Open = { cutoff: string };

/** Invitations to join a team, by email; listed newest first, then in byte order. */
export const invitationSql = {
  /** Whether the team has a member with the email. */
  hasMember: sql<{ teamId: string; email: string }, { found: number }>(
    (d) => `SELECT 1 AS found FROM members m JOIN people p ON p.id = m.person_id WHERE m.team_id = :teamId AND ${byEmail(d)}`,
  ),
  /** Drops the invitations too old to accept. */
  purge: sql<Open>('DELETE FROM team_invitations WHERE created_at <= :cutoff'),
  /** One per team and email: inviting again renews it. */
  upsert: sql<{ teamId: string; email: string; invitedBy: string; at: string }>(
    `INSERT INTO team_invitations (team_id, email, invited_by, created_at) VALUES (:teamId, :email, :invitedBy, :at)
     ON CONFLICT (team_id, email) DO UPDATE SET invited_by = excluded.invited_by, created_at = excluded.created_at`,
  ),
  ofTeam: sql<Open & { teamId: string }, Invitation>(
    (d) => `SELECT ${INVITATION} WHERE i.team_id = :teamId AND i.created_at > :cutoff ORDER BY i.created_at DESC, i.email${d.bytes}`,
  ),
  forEmail: sql<Open & { email: string }, Invitation>(
    (d) => `SELECT ${INVITATION} WHERE i.email = :email AND i.created_at > :cutoff ORDER BY i.created_at DESC, i.team_id${d.bytes}`,
  ),
  remove: sql<{ teamId: string; email: string }>('DELETE FROM team_invitations WHERE team_id = :teamId AND email = :email'),
  /** Takes the invitation if it is still open. */
  take: sql<Open & { teamId: string; email: string }>(
    'DELETE FROM team_invitations WHERE team_id = :teamId AND email = :email AND created_at > :cutoff',
  ),
};
