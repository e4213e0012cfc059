import { judgeRemoval } from '../../domain/team-roles.js';
import type { AccountRemoval } from '../ports.js';
import type { Steps } from './steps.js';
import { retireTeamDomains } from './domains.js';
import { q } from './link-queries.js';
import { t, type StoreQueries } from './team-queries.js';

/**
 * Deleting a person's account, as an operation for any adapter to run in one transaction (see steps.ts). Each of
 * their teams is locked as deleting a team locks it (its links, then its row: operations/teams.ts), so the rule is
 * judged on members and links no one else can change until it commits: an owner leaving or a link created meanwhile
 * is seen.
 */
export const accountOperations = {
  *remove(personId: string): Steps<StoreQueries, AccountRemoval> {
    const alone: string[] = [];
    for (const teamId of yield* t.teamsOf(personId)) {
      // Links first, then the team, the order every link change takes; read again once the team is locked, as team
      // deletion does, since a creation may have added one meanwhile.
      yield* t.lockedTeamLinks(teamId);
      const team = yield* t.lockedTeam(teamId);
      if (!team) continue;
      const members = yield* t.members(teamId);
      // A member among others, or one owner of several: their membership simply goes with them.
      if (judgeRemoval(members, personId, { personId }) !== 'last_owner') continue;
      const links = (yield* t.lockedTeamLinks(teamId)).length;
      const otherMembers = members.length - 1;
      // Nothing has changed yet: the refusal leaves everything as it was.
      if (otherMembers > 0 || links > 0) return { kind: 'last_owner', team, otherMembers, links };
      alone.push(teamId);
    }
    // Teams only they could see, with nothing in them: left behind, no one could ever reach or delete them.
    const domains: string[] = [];
    for (const teamId of alone) {
      domains.push(...(yield* retireTeamDomains(teamId)));
      yield* t.deleteTeam(teamId);
    }
    if (domains.length > 0) yield* q.changed(...domains);
    return (yield* t.deletePerson(personId)) ? { kind: 'removed', teamsDeleted: alone.length } : { kind: 'no_person' };
  },
};
