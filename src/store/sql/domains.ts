import type { DomainStanding } from '../../domain/custom-domain.js';
import type { TeamDomain } from '../ports.js';
import { flag, sql } from './statement.js';

const DOMAIN = `d.domain, d.team_id AS "teamId", d.token, d.state, d.proof, d.is_primary AS "primary", d.root_url AS "rootUrl",
  d.added_at AS "addedAt", d.verified_at AS "verifiedAt", d.missing_since AS "missingSince", d.checked_at AS "checkedAt",
  d.next_check_at AS "nextCheckAt", d.problem`;

/** A row as the drivers read it: SQLite's flag is 0 or 1, PostgreSQL's a boolean. */
export type DomainRow = Omit<TeamDomain, 'primary'> & { primary: number | boolean };

export function domainOf(row: DomainRow): TeamDomain {
  return { ...row, primary: flag(row.primary) };
}

type Named = { domain: string };
type InTeam = { teamId: string };
type Standing = Named & Pick<DomainStanding, 'state' | 'verifiedAt' | 'missingSince' | 'checkedAt' | 'nextCheckAt' | 'problem'>;

/**
 * The teams' domains (`team_domains`), as the domain operations (operations/domains.ts) and the DomainStore ask.
 * Domains sort byte by byte, so both adapters list them alike.
 */
export const domainSql = {
  /** A live domain (not removed). */
  byName: sql<Named, DomainRow>(`SELECT ${DOMAIN} FROM team_domains d WHERE d.domain = :domain AND d.state <> 'removed'`),
  /** Every change of a domain starts from its locked row, removed or not. */
  locked: sql<Named, DomainRow>((d) => `SELECT ${DOMAIN} FROM team_domains d WHERE d.domain = :domain${d.forUpdate}`),
  ofTeam: sql<InTeam, DomainRow>(
    (d) => `SELECT ${DOMAIN} FROM team_domains d WHERE d.team_id = :teamId AND d.state <> 'removed' ORDER BY d.domain${d.bytes}`,
  ),
  live: sql<object, DomainRow>((d) => `SELECT ${DOMAIN} FROM team_domains d WHERE d.state <> 'removed' ORDER BY d.domain${d.bytes}`),
  /** Removed ones too: what every process's directory holds. */
  all: sql<object, DomainRow>(`SELECT ${DOMAIN} FROM team_domains d`),
  due: sql<{ now: string; limit: number }, DomainRow>(
    (d) => `SELECT ${DOMAIN} FROM team_domains d WHERE d.next_check_at <= :now ORDER BY d.next_check_at${d.bytes}, d.domain${d.bytes} LIMIT :limit`,
  ),
  insert: sql<Omit<TeamDomain, 'primary' | 'rootUrl'>>(
    `INSERT INTO team_domains (domain, team_id, token, state, proof, added_at, verified_at, missing_since, checked_at, next_check_at, problem)
     VALUES (:domain, :teamId, :token, :state, :proof, :addedAt, :verifiedAt, :missingSince, :checkedAt, :nextCheckAt, :problem)`,
  ),
  /** Made way for the same name added again. */
  delete: sql<Named>('DELETE FROM team_domains WHERE domain = :domain'),
  remove: sql<Named>(
    `UPDATE team_domains SET state = 'removed', is_primary = false, root_url = NULL, next_check_at = NULL, problem = NULL WHERE domain = :domain`,
  ),
  clearPrimary: sql<InTeam>('UPDATE team_domains SET is_primary = false WHERE team_id = :teamId AND is_primary'),
  makePrimary: sql<Named>('UPDATE team_domains SET is_primary = true WHERE domain = :domain'),
  setRoot: sql<Named & { rootUrl: string | null }>('UPDATE team_domains SET root_url = :rootUrl WHERE domain = :domain'),
  saveStanding: sql<Standing>(
    `UPDATE team_domains SET state = :state, verified_at = :verifiedAt, missing_since = :missingSince, checked_at = :checkedAt,
       next_check_at = :nextCheckAt, problem = :problem WHERE domain = :domain`,
  ),
};
