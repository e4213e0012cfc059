/** A link row as LinkRecord, from table alias `l` (quoted aliases: PostgreSQL folds unquoted ones to lowercase). */
export const LINK_COLUMNS = `l.seq, l.id, l.team_id AS "teamId", l.code, l.name, l.destination, l.note, l.state,
  l.created_at AS "createdAt", l.changed_at AS "changedAt"`;
