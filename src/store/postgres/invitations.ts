import { invitationCutoff } from '../../domain/invitations.js';
import type { Invitation, InvitationStore } from '../ports.js';
import { silentAccessWrite, type AccessWrite } from './access-writes.js';
import type { PgPool } from './database.js';
import { changed, row, rows, transaction } from './query.js';
import { BYTES } from './rows.js';

const INVITATION = `i.team_id AS "teamId", t.name AS "teamName", i.email, p.email AS "invitedBy", i.created_at AS "createdAt"
  FROM team_invitations i JOIN teams t ON t.id = i.team_id LEFT JOIN people p ON p.id = i.invited_by`;

/**
 * The PostgreSQL InvitationStore; ordered in byte order, as SQLite orders. Accepting adds a member, so it runs as
 * `accessWrite`, which tells every process (memberships are kept in memory, index.ts).
 */
export function pgInvitations(pool: PgPool, accessWrite: AccessWrite = silentAccessWrite(pool)): InvitationStore {
  return {
    async invite(teamId, email, invitedBy, now) {
      return transaction(pool, async (client) => {
        // The team's row is held until the invitation is in, so a deletion under way finishes first, or waits.
        if (!(await row(client, 'SELECT 1 FROM teams WHERE id = $1 FOR KEY SHARE', [teamId]))) return 'no_team';
        const member = await row(
          client,
          'SELECT 1 FROM members m JOIN people p ON p.id = m.person_id WHERE m.team_id = $1 AND lower(p.email) = lower($2)',
          [teamId, email],
        );
        if (member) return 'member';
        await client.query('DELETE FROM team_invitations WHERE created_at <= $1', [invitationCutoff(now)]);
        await client.query(
          `INSERT INTO team_invitations (team_id, email, invited_by, created_at) VALUES ($1, $2, $3, $4)
           ON CONFLICT (team_id, email) DO UPDATE SET invited_by = excluded.invited_by, created_at = excluded.created_at`,
          [teamId, email, invitedBy, now.toISOString()],
        );
        return 'invited';
      });
    },
    async ofTeam(teamId, now) {
      return rows<Invitation>(
        pool,
        `SELECT ${INVITATION} WHERE i.team_id = $1 AND i.created_at > $2 ORDER BY i.created_at DESC, i.email ${BYTES}`,
        [teamId, invitationCutoff(now)],
      );
    },
    async forEmail(email, now) {
      return rows<Invitation>(
        pool,
        `SELECT ${INVITATION} WHERE i.email = $1 AND i.created_at > $2 ORDER BY i.created_at DESC, i.team_id ${BYTES}`,
        [email, invitationCutoff(now)],
      );
    },
    async accept(teamId, personId, email, now) {
      return accessWrite(async (client) => {
        const taken = await changed(
          client,
          'DELETE FROM team_invitations WHERE team_id = $1 AND email = $2 AND created_at > $3',
          [teamId, email, invitationCutoff(now)],
        );
        if (taken === 0) return 'not_open';
        // Only while the team exists (a deletion under way is waited out, after which nothing is inserted), as any
        // member is added.
        await client.query(
          `INSERT INTO members (team_id, person_id, role, added_at)
           SELECT $1, $2, 'member', $3 WHERE EXISTS (SELECT 1 FROM teams WHERE id = $1 FOR KEY SHARE)
           ON CONFLICT (team_id, person_id) DO NOTHING`,
          [teamId, personId, now.toISOString()],
        );
        return (await row(client, 'SELECT 1 FROM members WHERE team_id = $1 AND person_id = $2', [teamId, personId])) ? 'joined' : 'not_open';
      });
    },
    async remove(teamId, email) {
      return (await changed(pool, 'DELETE FROM team_invitations WHERE team_id = $1 AND email = $2', [teamId, email])) > 0;
    },
  };
}
