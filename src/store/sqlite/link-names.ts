import { apiError } from '../../errors.js';
import type { Db } from './database.js';

interface NameRow {
  teamId: string;
  linkId: string | null;
  retired: number;
}

/**
 * The one namespace of short link names. Runs inside the link store's transactions.
 * - held by a live link (any team): 409 `name_taken`;
 * - kept by another team after a rename: 409 `name_taken` (the keeping team may take it again);
 * - the name of a deleted link: 400 `reserved_name`, for everyone, forever.
 */
export function linkNames(db: Db) {
  const find = db.prepare('SELECT team_id AS teamId, link_id AS linkId, retired FROM names WHERE name = ?');
  const hold = db.prepare(
    `INSERT INTO names (name, team_id, link_id, retired) VALUES (?, ?, ?, 0)
     ON CONFLICT (name) DO UPDATE SET team_id = excluded.team_id, link_id = excluded.link_id`,
  );
  const release = db.prepare('UPDATE names SET link_id = NULL WHERE name = ?');
  const retire = db.prepare('UPDATE names SET link_id = NULL, retired = 1 WHERE name = ?');

  return {
    claim(name: string, teamId: string, linkId: string, field: string): void {
      const row = find.get(name) as NameRow | undefined;
      if (row?.retired) throw apiError.reservedName(`"${name}" belonged to a deleted link and is never issued again.`, field);
      if (row && row.linkId !== linkId && (row.linkId !== null || row.teamId !== teamId)) {
        throw apiError.nameTaken(`The short link name "${name}" is taken.`, field);
      }
      hold.run(name, teamId, linkId);
    },
    /** The name stops working at once and stays with its team. */
    release(name: string): void {
      release.run(name);
    },
    retire(name: string): void {
      retire.run(name);
    },
  };
}
