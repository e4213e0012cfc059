import type { LinkRecord, LinkStore, NewLink } from '../ports.js';
import { generateCode } from '../../domain/code.js';
import type { LinkIds } from '../../domain/ids.js';
import { checkChangeLimit, checkCreationLimits, HOUR_MS, DAY_MS, type Limits, type WindowCount } from '../../domain/limits.js';
import { assertChangeable, assertNoteChangeable, linkNotFound } from '../../domain/link-state.js';
import type { Random } from '../../domain/random.js';
import { writeTransaction, type Db } from './database.js';
import { linkSearch } from './link-search.js';
import { linkNames } from './link-names.js';
import { LINK_COLUMNS } from './link-columns.js';
import type { LinkChanges } from './link-changes.js';
import { sqliteActiveDestinations } from './recheck.js';
import { cachedRead } from './read-cache.js';


export function sqliteLinks(db: Db, random: Random, ids: LinkIds, changes: LinkChanges): LinkStore {
  const q = {
    byId: db.prepare(`SELECT ${LINK_COLUMNS} FROM links l WHERE l.id = ?`),
    byCode: db.prepare(`SELECT ${LINK_COLUMNS} FROM links l WHERE l.code = ?`),
    byName: db.prepare(`SELECT ${LINK_COLUMNS} FROM links l WHERE l.name = ?`),
    live: db.prepare('SELECT link_count FROM teams WHERE id = ?').pluck(),
    window: db.prepare(
      'SELECT count(*) AS count, min(at) AS oldestAt FROM link_events WHERE team_id = ? AND kind = ? AND at > ?',
    ),
    event: db.prepare('INSERT INTO link_events (team_id, kind, at) VALUES (?, ?, ?)'),
    code: db.prepare('INSERT OR IGNORE INTO codes (code) VALUES (?)'),
    insert: db.prepare(
      `INSERT INTO links (id, team_id, code, name, destination, note, state, created_at)
       VALUES (?, ?, ?, ?, ?, ?, 'active', ?)`,
    ),
    destination: db.prepare('UPDATE links SET destination = ?, changed_at = ? WHERE id = ?'),
    note: db.prepare('UPDATE links SET note = ?, changed_at = ? WHERE id = ?'),
    name: db.prepare('UPDATE links SET name = ?, changed_at = ? WHERE id = ?'),
    state: db.prepare('UPDATE links SET state = ?, changed_at = ? WHERE id = ?'),
    remove: db.prepare('DELETE FROM links WHERE id = ?'),
    resolveReports: db.prepare('UPDATE reports SET resolved_at = ? WHERE link_id = ? AND resolved_at IS NULL'),
    resolveReviews: db.prepare('UPDATE reviews SET resolved_at = ? WHERE link_id = ? AND resolved_at IS NULL'),
    newest: db.prepare('SELECT max(created_at) FROM links').pluck(),
    purgeEvents: db.prepare('DELETE FROM link_events WHERE at < ?'),
  };
  // getLink and every change of a link start here.
  const byCode = cachedRead(db, 10_000, (code: string) => code, (code: string) => (q.byCode.get(code) as LinkRecord | undefined) ?? null);
  const names = linkNames(db);
  const search = linkSearch(db);
  const newest = q.newest.get() as string | null;
  if (newest) ids.seed(Date.parse(newest));

  const read = (id: string): LinkRecord => {
    const link = q.byId.get(id) as LinkRecord | undefined;
    if (!link) throw linkNotFound();
    return link;
  };
  const windowOf = (teamId: string, kind: string, now: Date, span: number): WindowCount =>
    q.window.get(teamId, kind, now.getTime() - span) as WindowCount;
  const drawCode = (): string => {
    for (;;) {
      const code = generateCode(random);
      if (q.code.run(code).changes === 1) return code;
    }
  };
  // No limit looks back further than a day; older events are dropped now and then.
  let purgedAt = 0;
  const purgeOldEvents = (now: Date): void => {
    if (now.getTime() - purgedAt < 60_000) return;
    purgedAt = now.getTime();
    q.purgeEvents.run(now.getTime() - DAY_MS);
  };
  const countChange = (link: LinkRecord, now: Date, limits: Limits): void => {
    checkChangeLimit(windowOf(link.teamId, 'change', now, HOUR_MS), now, limits);
    q.event.run(link.teamId, 'change', now.getTime());
  };

  const create = writeTransaction(db, (input: NewLink, limits: Limits, now: Date): LinkRecord => {
    const counts = {
      live: q.live.get(input.teamId) as number,
      lastHour: windowOf(input.teamId, 'create', now, HOUR_MS),
      lastDay: windowOf(input.teamId, 'create', now, DAY_MS),
    };
    checkCreationLimits(counts, input.teamCreatedAt, now, limits);
    const { id, createdAt } = ids.next(now.getTime());
    if (input.name !== null) names.claim(input.name, input.teamId, id, 'name');
    const code = drawCode();
    q.insert.run(id, input.teamId, code, input.name, input.destination, input.note, createdAt.toISOString());
    q.event.run(input.teamId, 'create', now.getTime());
    purgeOldEvents(now);
    // Told inside the transaction: nothing else runs before it commits, and forgetting early is always safe.
    changes.changed(code, input.name);
    return read(id);
  });

  const setDestination = writeTransaction(db, (id: string, destination: string, limits: Limits, now: Date) => {
    const link = read(id);
    assertChangeable(link.state);
    countChange(link, now, limits);
    q.destination.run(destination, now.toISOString(), id);
    changes.changed(link.code, link.name);
    return read(id);
  });

  const setNote = writeTransaction(db, (id: string, note: string | null, now: Date) => {
    assertNoteChangeable(read(id).state);
    q.note.run(note, now.toISOString(), id);
    return read(id);
  });

  const rename = writeTransaction(db, (id: string, name: string | null, limits: Limits, now: Date) => {
    const link = read(id);
    assertChangeable(link.state);
    if (link.name === name) return link;
    countChange(link, now, limits);
    if (link.name !== null) names.release(link.name);
    if (name !== null) names.claim(name, link.teamId, id, 'name');
    q.name.run(name, now.toISOString(), id);
    changes.changed(link.code, link.name, name);
    return read(id);
  });

  const remove = writeTransaction(db, (id: string, limits: Limits, now: Date) => {
    const link = read(id);
    countChange(link, now, limits);
    if (link.name !== null) names.retire(link.name);
    q.remove.run(id);
    changes.changed(link.code, link.name);
  });

  const setState = writeTransaction(db, (code: string, state: LinkRecord['state'], now: Date) => {
    const link = q.byCode.get(code) as LinkRecord | undefined;
    if (!link) return null;
    if (link.state !== state) q.state.run(state, now.toISOString(), link.id);
    changes.changed(link.code, link.name);
    if (state === 'active') {
      q.resolveReports.run(now.toISOString(), link.id);
      q.resolveReviews.run(now.toISOString(), link.id);
    }
    return read(link.id);
  });

  return {
    create: async (input, limits, now) => create(input, limits, now),
    findByCode: async (code) => byCode(code),
    findByName: async (name) => (q.byName.get(name) as LinkRecord | undefined) ?? null,
    list: async (teamId, filter, page) => search(teamId, filter, page),
    setDestination: async (id, destination, limits, now) => setDestination(id, destination, limits, now),
    setNote: async (id, note, now) => setNote(id, note, now),
    rename: async (id, name, limits, now) => rename(id, name, limits, now),
    delete: async (id, limits, now) => remove(id, limits, now),
    setState: async (code, state, now) => setState(code, state, now),
    activeDestinations: sqliteActiveDestinations(db),
  };
}
