import { sql } from './statement.js';

type OfPerson = { personId: string };

/** A person's own account: what deleting it asks (operations/accounts.ts) beside the team queries. */
export const accountSql = {
  /** In id order: the order every deletion of an account locks the teams in. */
  teamsOf: sql<OfPerson, { teamId: string }>('SELECT team_id AS "teamId" FROM members WHERE person_id = :personId ORDER BY team_id'),
  /**
   * Their memberships, tokens, web sessions, assistant grants (with their codes and tokens) and set-password links go
   * with them (ON DELETE CASCADE); team invitations they sent stay, unsigned (ON DELETE SET NULL).
   */
  deletePerson: sql<OfPerson>('DELETE FROM people WHERE id = :personId'),
};
