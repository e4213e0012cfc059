import { invitationCutoff } from '../../domain/invitations.js';
import type { InvitationStore } from '../ports.js';
import { invitationSql } from '../sql/invitations.js';
import { teamSql } from '../sql/teams.js';
import { silentAccessWrite, type AccessWrite } from './access-writes.js';
import type { PgPool } from './database.js';
import { changed, row, rows, run, transaction } from './query.js';

/**
 * The PostgreSQL InvitationStore. Accepting adds a member, so it runs as `accessWrite`, which tells every process
 * (memberships are kept in memory, index.ts).
 */
export function pgInvitations(pool: PgPool, accessWrite: AccessWrite = silentAccessWrite(pool)): InvitationStore {
  return {
    async invite(teamId, email, invitedBy, now) {
      return transaction(pool, async (client) => {
        // The team's row is held until the invitation is in, so a deletion under way finishes first, or waits.
        if (!(await row(client, teamSql.held, { teamId }))) return 'no_team';
        if (await row(client, invitationSql.hasMember, { teamId, email })) return 'member';
        await run(client, invitationSql.purge, { cutoff: invitationCutoff(now) });
        await run(client, invitationSql.upsert, { teamId, email, invitedBy, at: now.toISOString() });
        return 'invited';
      });
    },
    async ofTeam(teamId, now) {
      return rows(pool, invitationSql.ofTeam, { teamId, cutoff: invitationCutoff(now) });
    },
    async forEmail(email, now) {
      return rows(pool, invitationSql.forEmail, { email, cutoff: invitationCutoff(now) });
    },
    async accept(teamId, personId, email, now) {
      return accessWrite(async (client) => {
        const taken = await changed(client, invitationSql.take, { teamId, email, cutoff: invitationCutoff(now) });
        if (taken === 0) return 'not_open';
        // Only while the team exists (a deletion under way is waited out, after which nothing is inserted), as any
        // member is added.
        await run(client, teamSql.insertMember, { teamId, personId, role: 'member', at: now.toISOString() });
        return (await row(client, teamSql.isMember, { teamId, personId })) ? 'joined' : 'not_open';
      });
    },
    async remove(teamId, email) {
      return (await changed(pool, invitationSql.remove, { teamId, email })) > 0;
    },
  };
}
