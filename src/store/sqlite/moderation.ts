import type { LinkRecord, ModerationStore, Report } from '../ports.js';
import { newId } from '../../domain/ids.js';
import type { Random } from '../../domain/random.js';
import { fail } from '../../errors.js';
import { linkNotFound } from '../../domain/link-state.js';
import { writeTransaction, type Db } from './database.js';
import { LINK_COLUMNS } from './link-columns.js';
import type { LinkChanges } from './link-changes.js';

export function sqliteModeration(db: Db, random: Random, changes: LinkChanges): ModerationStore {
  const link = db.prepare(`SELECT ${LINK_COLUMNS} FROM links l WHERE l.id = ?`);
  const report = db.prepare(
    `INSERT INTO reports (id, link_id, person_id, reason, created_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (link_id, person_id) WHERE resolved_at IS NULL DO UPDATE SET reason = excluded.reason`,
  );
  const reporters = db.prepare(
    'SELECT count(DISTINCT person_id) FROM reports WHERE link_id = ? AND resolved_at IS NULL',
  ).pluck();
  const flag = db.prepare("UPDATE links SET state = 'flagged' WHERE id = ? AND state = 'active'");
  const review = db.prepare(
    `INSERT INTO reviews (id, link_id, person_id, reason, created_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (link_id, person_id) WHERE resolved_at IS NULL DO UPDATE SET reason = excluded.reason`,
  );
  const open = (table: 'reports' | 'reviews') =>
    db.prepare(
      `SELECT r.id, l.code AS linkCode, r.person_id AS personId, r.reason, r.created_at AS createdAt
       FROM ${table} r JOIN links l ON l.id = r.link_id WHERE r.resolved_at IS NULL ORDER BY r.created_at, r.id`,
    );
  const openReports = open('reports');
  const openReviews = open('reviews');

  const read = (id: string): LinkRecord => {
    const row = link.get(id) as LinkRecord | undefined;
    if (!row) throw linkNotFound();
    return row;
  };

  const addReport = writeTransaction(db, (linkId: string, personId: string, reason: string, threshold: number, now: Date) => {
    read(linkId);
    report.run(newId('report', random), linkId, personId, reason, now.toISOString());
    if ((reporters.get(linkId) as number) >= threshold && flag.run(linkId).changes > 0) {
      const flagged = read(linkId);
      changes.changed(flagged.code, flagged.name);
    }
    return read(linkId);
  });

  const addReview = writeTransaction(db, (linkId: string, personId: string, reason: string | null, now: Date) => {
    const current = read(linkId);
    if (current.state !== 'flagged') {
      throw fail('conflict', 'Only a flagged link can be reviewed; this one is not flagged.', 'code');
    }
    review.run(newId('review', random), linkId, personId, reason, now.toISOString());
    return current;
  });

  return {
    report: async (linkId, personId, reason, threshold, now) => addReport(linkId, personId, reason, threshold, now),
    askForReview: async (linkId, personId, reason, now) => addReview(linkId, personId, reason, now),
    openReports: async () => openReports.all() as Report[],
    openReviews: async () => openReviews.all() as Array<Omit<Report, 'reason'> & { reason: string | null }>,
  };
}
