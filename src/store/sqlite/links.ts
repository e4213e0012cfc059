import type { LinkStore } from '../ports.js';
import type { LinkIds } from '../../domain/ids.js';
import type { Random } from '../../domain/random.js';
import { linkChanges } from '../operations/links.js';
import { LINK_COLUMNS, linkOf, linkOrNull, linkSql, type LinkRow } from '../sql/links.js';
import type { Db } from './database.js';
import { linkSearch } from './link-search.js';
import { withTags } from '../tagged-links.js';
import type { sqliteOperations } from './link-queries.js';
import { prepareAll } from './prepare.js';
import { sqliteActiveDestinations } from './recheck.js';
import { cachedRead } from './read-cache.js';

/** The SQLite LinkStore: reads here, changes as the shared operations (store/operations/links.ts). */
export function sqliteLinks(db: Db, random: Random, ids: LinkIds, perform: ReturnType<typeof sqliteOperations>): LinkStore {
  const read = prepareAll(db, { byCode: linkSql.byCode, byName: linkSql.byName });
  // getLink and every change of a link start here.
  const byCode = cachedRead(db, 10_000, (code: string) => code, (code: string) => linkOrNull(read.byCode.get({ code })));
  const search = linkSearch(db);
  const tags = prepareAll(db, { newestTagged: linkSql.newestTagged, newestTaggedInState: linkSql.newestTaggedInState, teamTags: linkSql.teamTags, tagsHolding: linkSql.tagsHolding });
  const list = withTags(async (teamId, filter, page) => search(teamId, filter, page), {
    tagged: async (teamId, tag, state, before, limit) =>
      (state ? tags.newestTaggedInState.all({ teamId, tag, state, before, limit }) : tags.newestTagged.all({ teamId, tag, before, limit })).map(linkOf),
    tagsHolding: async (teamId, part, limit) => tags.tagsHolding.all({ teamId, part, limit }).map((row) => row.tag),
  });
  // One statement for any number of links: SQLite binds the ids as a JSON array, so it is prepared once.
  const byIds = db.prepare(`SELECT ${LINK_COLUMNS} FROM links l WHERE l.id IN (SELECT value FROM json_each(?))`);

  return {
    ...linkChanges(perform, random, ids),
    findByCode: async (code) => byCode(code),
    findByName: async (name) => linkOrNull(read.byName.get({ name })),
    findByIds: async (ids) => (byIds.all(JSON.stringify(ids)) as LinkRow[]).map(linkOf),
    list,
    tags: async (teamId) => tags.teamTags.all({ teamId }),
    activeDestinations: sqliteActiveDestinations(db),
  };
}
