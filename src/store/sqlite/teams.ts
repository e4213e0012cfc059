import type { Team, TeamStore } from '../ports.js';
import { newId } from '../../domain/ids.js';
import type { Random } from '../../domain/random.js';
import { teamOperations } from '../operations/teams.js';
import { linkSql } from '../sql/links.js';
import { teamSql } from '../sql/teams.js';
import type { Db } from './database.js';
import type { sqliteOperations } from './link-queries.js';
import { prepare, prepareAll } from './prepare.js';
import { cachedRead } from './read-cache.js';

/** The SQLite TeamStore: reads and additions here, removals and changes as the shared operations (operations/teams.ts). */
export function sqliteTeams(db: Db, random: Random, perform: ReturnType<typeof sqliteOperations>): TeamStore {
  const s = prepareAll(db, teamSql);
  const liveLinks = prepare(db, linkSql.liveLinks);
  const addMember = db.transaction((teamId: string, personId: string, now: Date) => {
    if (s.insertMember.run({ teamId, personId, role: 'member', at: now.toISOString() }).changes === 0) {
      return s.exists.get({ teamId }) ? ('already' as const) : ('no_team' as const);
    }
    s.spendInvitation.run({ teamId, personId });
    return 'added' as const;
  });
  // Every read or change of a link asks it.
  const isMember = cachedRead(
    db,
    10_000,
    (teamId: string, personId: string) => `${teamId} ${personId}`,
    (teamId: string, personId: string) => s.isMember.get({ teamId, personId }) !== undefined,
  );
  const addTeam = db.transaction((team: Team, ownerId: string) => {
    s.insert.run(team);
    s.insertMember.run({ teamId: team.id, personId: ownerId, role: 'owner', at: team.createdAt });
  });

  return {
    async add({ name, ownerId }, now) {
      const team: Team = { id: newId('team', random), name, createdAt: now.toISOString() };
      addTeam(team, ownerId);
      return team;
    },
    async get(id) {
      return s.byId.get({ id }) ?? null;
    },
    async listForPerson(personId, { limit, after }) {
      return s.forPerson.all({ personId, afterName: after?.[0] ?? null, afterId: after?.[1] ?? null, limit });
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
      return s.members.all({ teamId });
    },
    async linkCount(teamId) {
      return liveLinks.get({ teamId })?.n ?? null;
    },
    rename: perform(teamOperations.rename),
    delete: perform(teamOperations.delete),
  };
}
