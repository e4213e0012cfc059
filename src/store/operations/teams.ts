import { judgePromotion, judgeRemoval, refusalToManage, type Promotion, type Refusal, type Removal, type TeamActor } from '../../domain/team-roles.js';
import type { Team } from '../ports.js';
import { retireTeamDomains } from './domains.js';
import { q } from './link-queries.js';
import type { Steps } from './steps.js';
import { t, type StoreQueries } from './team-queries.js';

type Op<T> = Steps<StoreQueries, T>;

/**
 * The TeamStore's changes of who belongs and what the team is, as operations for any adapter to run in one
 * transaction each (see steps.ts). Each locks the team's row before it reads the members, so the rules
 * (domain/team-roles.ts) are judged on members no one else can change until it commits.
 */
export const teamOperations = {
  *removeMember(teamId: string, targetId: string, by: TeamActor): Op<Removal> {
    if (!(yield* t.lockedTeam(teamId))) return 'no_team';
    const removal = judgeRemoval(yield* t.members(teamId), targetId, by);
    if (removal === 'removed') yield* t.deleteMember(teamId, targetId);
    return removal;
  },

  *makeOwner(teamId: string, personId: string, by: TeamActor): Op<Promotion> {
    if (!(yield* t.lockedTeam(teamId))) return 'no_team';
    const promotion = judgePromotion(yield* t.members(teamId), personId, by);
    if (promotion === 'made') yield* t.setRole(teamId, personId, 'owner');
    return promotion;
  },

  *rename(teamId: string, name: string, by: TeamActor): Op<Team | Refusal> {
    const team = yield* t.lockedTeam(teamId);
    if (!team) return 'no_team';
    const refusal = refusalToManage(yield* t.members(teamId), by);
    if (refusal) return refusal;
    yield* t.setTeamName(teamId, name);
    return { ...team, name };
  },

  /**
   * Deletes the team with its links and members; answers how many links went. The links are locked before the
   * team, the order every link change takes (link-queries.ts, lockLink), so a change under way finishes first;
   * they are read again once the team is locked, since a creation may have added one meanwhile.
   */
  *delete(teamId: string, by: TeamActor): Op<{ links: number } | Refusal> {
    yield* t.lockedTeamLinks(teamId);
    if (!(yield* t.lockedTeam(teamId))) return 'no_team';
    const refusal = refusalToManage(yield* t.members(teamId), by);
    if (refusal) return refusal;
    const links = yield* t.lockedTeamLinks(teamId);
    const domains = yield* retireTeamDomains(teamId);
    yield* t.retireTeamNames(teamId);
    yield* t.deleteTeamLinks(teamId);
    yield* t.deleteTeam(teamId);
    // Every cache of these links forgets them, in every process: they answer 404 from the next request on.
    // Its domains are removed with it, and stop serving on the next request in every process too.
    const keys = [...links.flatMap((link) => [link.code, link.name]), ...domains];
    if (keys.length > 0) yield* q.changed(...keys);
    return { links: links.length };
  },
};
