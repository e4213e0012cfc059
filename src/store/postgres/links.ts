import type pg from 'pg';
import type { ActiveLink, LinkRecord, LinkStore } from '../ports.js';
import type { LinkIds } from '../../domain/ids.js';
import type { Random } from '../../domain/random.js';
import { linkOperations } from '../operations/links.js';
import { LINK_COLUMNS } from './link-columns.js';
import type { pgOperations } from './operations.js';
import { row, rows } from './query.js';
import { pgLinkSearch } from './search.js';

/** The PostgreSQL LinkStore: reads here, changes as the shared operations (store/operations/links.ts). */
export function pgLinks(pool: pg.Pool, random: Random, ids: LinkIds, perform: ReturnType<typeof pgOperations>): LinkStore {
  const operations = linkOperations(random, ids);
  const by = (column: 'code' | 'name') => (value: string) =>
    row<LinkRecord>(pool, `SELECT ${LINK_COLUMNS} FROM links l WHERE l.${column} = $1`, [value]);
  return {
    create: perform(operations.create),
    createMany: perform(operations.createMany),
    findByCode: by('code'),
    findByName: by('name'),
    list: pgLinkSearch(pool),
    nameRefusal: perform(operations.nameRefusal),
    setDestination: perform(operations.setDestination),
    setNote: perform(operations.setNote),
    rename: perform(operations.rename),
    delete: perform(operations.delete),
    setState: perform(operations.setState),
    activeDestinations: (after, limit) =>
      rows<ActiveLink>(pool, "SELECT seq, code, destination FROM links WHERE state = 'active' AND seq > $1 ORDER BY seq LIMIT $2", [after, limit]),
  };
}
