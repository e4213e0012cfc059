import type pg from 'pg';
import type { LinkStore } from '../ports.js';
import type { LinkIds } from '../../domain/ids.js';
import type { Random } from '../../domain/random.js';
import { linkChanges } from '../operations/links.js';
import { LINK_COLUMNS, linkOf, linkOrNull, linkSql, type LinkRow } from '../sql/links.js';
import type { pgOperations } from './operations.js';
import { row, rows } from './query.js';
import { pgLinkSearch } from './search.js';
import { withTags } from '../tagged-links.js';

/** The PostgreSQL LinkStore: reads here, changes as the shared operations (store/operations/links.ts). */
export function pgLinks(pool: pg.Pool, random: Random, ids: LinkIds, perform: ReturnType<typeof pgOperations>): LinkStore {
  return {
    ...linkChanges(perform, random, ids),
    findByCode: async (code) => linkOrNull(await row(pool, linkSql.byCode, { code })),
    findByName: async (name) => linkOrNull(await row(pool, linkSql.byName, { name })),
    findByIds: async (ids) => (await rows<LinkRow>(pool, `SELECT ${LINK_COLUMNS} FROM links l WHERE l.id = ANY($1::text[])`, [[...ids]])).map(linkOf),
    list: withTags(pgLinkSearch(pool), {
      tagged: async (teamId, tag, state, before, limit) =>
        (state
          ? await rows(pool, linkSql.newestTaggedInState, { teamId, tag, state, before, limit })
          : await rows(pool, linkSql.newestTagged, { teamId, tag, before, limit })
        ).map(linkOf),
      tagsHolding: async (teamId, part, limit) => (await rows(pool, linkSql.tagsHolding, { teamId, part, limit })).map((row) => row.tag),
    }),
    tags: (teamId) => rows(pool, linkSql.teamTags, { teamId }),
    activeDestinations: (after, limit) => rows(pool, linkSql.activeDestinations, { after, limit }),
  };
}
