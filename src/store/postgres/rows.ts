/**
 * What several PostgreSQL store files need to read rows as the ports carry them. Column aliases are quoted:
 * PostgreSQL folds unquoted names to lower case, and the ports' fields are camelCase.
 */

/** A person's columns under their Person names; the query names the people table `p`. */
export const PERSON_COLUMNS = 'p.id, p.email, p.agreed_terms_at AS "agreedTermsAt", p.created_at AS "createdAt", p.operator';

/**
 * Appended to text in ORDER BY and keyset comparisons: SQLite compares text byte by byte, while PostgreSQL uses
 * the database's locale, which may sort `a` before `B` and so order random ids and names differently. Byte order
 * ("C") keeps both adapters' pages identical whatever locale the database was made with. ISO times need it only
 * for ties, which then fall to an id compared the same way.
 */
export const BYTES = 'COLLATE "C"';
