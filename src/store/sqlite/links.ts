import type { LinkRecord, LinkStore } from '../ports.js';
import type { LinkIds } from '../../domain/ids.js';
import type { Random } from '../../domain/random.js';
import { linkOperations } from '../operations/links.js';
import type { Db } from './database.js';
import { linkSearch } from './link-search.js';
import { LINK_COLUMNS } from './link-columns.js';
import type { sqliteOperations } from './link-queries.js';
import { sqliteActiveDestinations } from './recheck.js';
import { cachedRead } from './read-cache.js';

/** The SQLite LinkStore: reads here, changes as the shared operations (store/operations/links.ts). */
export function sqliteLinks(db: Db, random: Random, ids: LinkIds, perform: ReturnType<typeof sqliteOperations>): LinkStore {
  const byCodeQuery = db.prepare(`SELECT ${LINK_COLUMNS} FROM links l WHERE l.code = ?`);
  const byName = db.prepare(`SELECT ${LINK_COLUMNS} FROM links l WHERE l.name = ?`);
  // getLink and every change of a link start here.
  const byCode = cachedRead(db, 10_000, (code: string) => code, (code: string) => (byCodeQuery.get(code) as LinkRecord | undefined) ?? null);
  const search = linkSearch(db);
  const operations = linkOperations(random, ids);

  return {
    create: perform(operations.create),
    createMany: perform(operations.createMany),
    findByCode: async (code) => byCode(code),
    findByName: async (name) => (byName.get(name) as LinkRecord | undefined) ?? null,
    list: async (teamId, filter, page) => search(teamId, filter, page),
    nameRefusal: perform(operations.nameRefusal),
    setDestination: perform(operations.setDestination),
    setNote: perform(operations.setNote),
    rename: perform(operations.rename),
    delete: perform(operations.delete),
    setState: perform(operations.setState),
    activeDestinations: sqliteActiveDestinations(db),
  };
}
