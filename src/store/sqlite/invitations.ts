import { invitationCutoff } from '../../domain/invitations.js';
import type { Invitation, InvitationStore } from '../ports.js';
import { writeTransaction, type Db } from './database.js';

const INVITATION = `i.team_id AS teamId, t.name AS teamName, i.email, p.email AS invitedBy, i.created_at AS createdAt
  FROM team_invitations i JOIN teams t ON t.id = i.team_id LEFT JOIN people p ON p.id = i.invited_by`;

/** The SQLite InvitationStore. */
export function sqliteInvitations(db: Db): InvitationStore {
  const isMember = db.prepare(
    'SELECT 1 FROM members m JOIN people p ON p.id = m.person_id WHERE m.team_id = ? AND p.email = ?',
  ).pluck();
  const teamExists = db.prepare('SELECT 1 FROM teams WHERE id = ?').pluck();
  const purge = db.prepare('DELETE FROM team_invitations WHERE created_at <= ?');
  const upsert = db.prepare(
    `INSERT INTO team_invitations (team_id, email, invited_by, created_at) VALUES (@teamId, @email, @invitedBy, @at)
     ON CONFLICT (team_id, email) DO UPDATE SET invited_by = excluded.invited_by, created_at = excluded.created_at`,
  );
  // Reads that turn into writes: immediate, so another process's commit in between cannot fail it with SQLITE_BUSY.
  const invite = writeTransaction(db, (teamId: string, email: string, invitedBy: string, now: Date) => {
    if (!teamExists.get(teamId)) return 'no_team' as const;
    if (isMember.get(teamId, email)) return 'member' as const;
    purge.run(invitationCutoff(now));
    upsert.run({ teamId, email, invitedBy, at: now.toISOString() });
    return 'invited' as const;
  });
  const ofTeam = db.prepare(`SELECT ${INVITATION} WHERE i.team_id = ? AND i.created_at > ? ORDER BY i.created_at DESC, i.email`);
  const forEmail = db.prepare(`SELECT ${INVITATION} WHERE i.email = ? AND i.created_at > ? ORDER BY i.created_at DESC, i.team_id`);
  const remove = db.prepare('DELETE FROM team_invitations WHERE team_id = ? AND email = ?');
  const take = db.prepare('DELETE FROM team_invitations WHERE team_id = ? AND email = ? AND created_at > ?');
  // The invitation goes with the team (ON DELETE CASCADE), so one taken means the team is there to join.
  const join = db.prepare(`INSERT OR IGNORE INTO members (team_id, person_id, role, added_at) VALUES (?, ?, 'member', ?)`);
  const accept = writeTransaction(db, (teamId: string, personId: string, email: string, now: Date) => {
    if (take.run(teamId, email, invitationCutoff(now)).changes === 0) return 'not_open' as const;
    join.run(teamId, personId, now.toISOString());
    return 'joined' as const;
  });

  return {
    async invite(teamId, email, invitedBy, now) {
      return invite(teamId, email, invitedBy, now);
    },
    async ofTeam(teamId, now) {
      return ofTeam.all(teamId, invitationCutoff(now)) as Invitation[];
    },
    async forEmail(email, now) {
      return forEmail.all(email, invitationCutoff(now)) as Invitation[];
    },
    async accept(teamId, personId, email, now) {
      return accept(teamId, personId, email, now);
    },
    async remove(teamId, email) {
      return remove.run(teamId, email).changes > 0;
    },
  };
}
