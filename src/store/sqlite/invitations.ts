import { invitationCutoff } from '../../domain/invitations.js';
import type { InvitationStore } from '../ports.js';
import { invitationSql } from '../sql/invitations.js';
import { teamSql } from '../sql/teams.js';
import { writeTransaction, type Db } from './database.js';
import { prepare, prepareAll } from './prepare.js';

/** The SQLite InvitationStore. */
export function sqliteInvitations(db: Db): InvitationStore {
  const s = prepareAll(db, invitationSql);
  const teamExists = prepare(db, teamSql.exists);
  const join = prepare(db, teamSql.insertMember);
  // Reads that turn into writes: immediate, so another process's commit in between cannot fail it with SQLITE_BUSY.
  const invite = writeTransaction(db, (teamId: string, email: string, invitedBy: string, now: Date) => {
    if (!teamExists.get({ teamId })) return 'no_team' as const;
    if (s.hasMember.get({ teamId, email })) return 'member' as const;
    s.purge.run({ cutoff: invitationCutoff(now) });
    s.upsert.run({ teamId, email, invitedBy, at: now.toISOString() });
    return 'invited' as const;
  });
  // The invitation goes with the team (ON DELETE CASCADE), so one taken means the team is there to join.
  const accept = writeTransaction(db, (teamId: string, personId: string, email: string, now: Date) => {
    if (s.take.run({ teamId, email, cutoff: invitationCutoff(now) }).changes === 0) return 'not_open' as const;
    join.run({ teamId, personId, role: 'member', at: now.toISOString() });
    return 'joined' as const;
  });

  return {
    async invite(teamId, email, invitedBy, now) {
      return invite(teamId, email, invitedBy, now);
    },
    async ofTeam(teamId, now) {
      return s.ofTeam.all({ teamId, cutoff: invitationCutoff(now) });
    },
    async forEmail(email, now) {
      return s.forEmail.all({ email, cutoff: invitationCutoff(now) });
    },
    async accept(teamId, personId, email, now) {
      return accept(teamId, personId, email, now);
    },
    async remove(teamId, email) {
      return s.remove.run({ teamId, email }).changes > 0;
    },
  };
}
