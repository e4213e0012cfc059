import { LINK_SEARCH_FUNCTION } from '../postgres/search-function.js';
import { textFor, type Dialect, type DialectText } from './statement.js';

/**
 * Schema migrations written once for both databases. Each adapter first applies its own history, frozen as it was
 * shipped (sqlite/migrations.ts, 1 to 19; postgres/migrations.ts, 1 to 13), then this list in order: its first
 * migration is SQLite's 20 and PostgreSQL's 14, its second 21 and 15, and so on. A database at any version migrates
 * as before, and a stored version still names one migration of its adapter's list. Neither history takes a new
 * migration any more: one appended there would give the shared migrations other numbers on that database, and a
 * database that applied them would skip or repeat one (test/store/migration-contract.ts holds both lengths).
 *
 * A migration is the same text for both databases, or a function of the dialect where they really differ: types
 * (BLOB and bytea, 0/1 flags and boolean, epoch milliseconds as INTEGER and bigint), WITHOUT ROWID, SQLite's FTS5
 * against PostgreSQL's functions and indexes. One that only one database needs (an index for PostgreSQL's search)
 * is the empty text on the other, which still counts it, so the n-th of this list stays SQLite's 19 + n and
 * PostgreSQL's 13 + n. Each runs in a transaction of its own with its version, so it is applied whole, once.
 * Appended only; a shipped one is never edited: a change is a new migration. Written to run again (IF NOT EXISTS),
 * as the later ones of the histories are: tests of an earlier migration set a database's version back and let it
 * apply the later ones again. docs/storage-schema.md describes every table.
 */
export const sharedMigrations: readonly DialectText[] = [
  // 1 (SQLite's 20, PostgreSQL's 14): sign-up links an operator makes for an email (`shortlinks person invite`), by
  // the SHA-256 of their token, as password links are kept. By email, not person: the account does not exist yet.
  (d) => `
  CREATE TABLE IF NOT EXISTS signup_invitations (
    token_hash ${d.name === 'sqlite' ? 'BLOB' : 'bytea'} PRIMARY KEY,
    email TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    used_at TEXT
  )${d.name === 'sqlite' ? ' WITHOUT ROWID' : ''};
  CREATE INDEX IF NOT EXISTS signup_invitations_by_email ON signup_invitations(email);
  `,
  // 2 (SQLite's 21, nothing there; PostgreSQL's 15): listLinks q as one PL/pgSQL function (postgres/search.ts).
  (d) => (d.name === 'sqlite' ? '' : LINK_SEARCH_FUNCTION),
  // 3 (SQLite's 22, PostgreSQL's 16): single sign-on (OIDC_ISSUER): who each person is at the provider (`iss`,
  // `sub`), so an account stays its person's when their email changes there. Gone with the person.
  (d) => `
  CREATE TABLE IF NOT EXISTS oidc_identities (
    issuer TEXT NOT NULL,
    subject TEXT NOT NULL,
    person_id TEXT NOT NULL REFERENCES people(id) ON DELETE CASCADE,
    created_at TEXT NOT NULL,
    PRIMARY KEY (issuer, subject)
  )${d.name === 'sqlite' ? ' WITHOUT ROWID' : ''};
  CREATE INDEX IF NOT EXISTS oidc_identities_by_person ON oidc_identities(person_id);
  `,
  // 4 (SQLite's 23, PostgreSQL's 17): email (SMTP_URL): the outbox the server processes send from (times in epoch ms;
  // a message's text is blanked once sent or given up, since it holds one-time links), and email changes waiting for
  // their confirmation link.
  (d) => `
  CREATE TABLE IF NOT EXISTS mail_outbox (
    id TEXT PRIMARY KEY,
    recipient TEXT NOT NULL,
    subject TEXT NOT NULL,
    text_body TEXT NOT NULL,
    html_body TEXT NOT NULL,
    state TEXT NOT NULL,
    attempts INTEGER NOT NULL,
    due_at ${d.name === 'sqlite' ? 'INTEGER' : 'bigint'} NOT NULL,
    holder TEXT,
    last_error TEXT,
    created_at ${d.name === 'sqlite' ? 'INTEGER' : 'bigint'} NOT NULL,
    finished_at ${d.name === 'sqlite' ? 'INTEGER' : 'bigint'}
  );
  CREATE INDEX IF NOT EXISTS mail_outbox_due ON mail_outbox(state, due_at);
  CREATE TABLE IF NOT EXISTS email_changes (
    token_hash ${d.name === 'sqlite' ? 'BLOB' : 'bytea'} PRIMARY KEY,
    person_id TEXT NOT NULL REFERENCES people(id) ON DELETE CASCADE,
    email TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    used_at TEXT
  )${d.name === 'sqlite' ? ' WITHOUT ROWID' : ''};
  CREATE INDEX IF NOT EXISTS email_changes_by_person ON email_changes(person_id);
  `,
  // 5 (SQLite's 24, PostgreSQL's 18): click analytics (issue 23), aggregated per link and UTC day as the daily counts
  // are: counted clicks by facet value, not-counted requests by class, counted clicks and estimated visitors (with
  // the link's team), and each team's sums of the three, so a team's breakdown reads days, not links (kept by add,
  // reduced by a link's share when it is deleted). Each link's counted clicks and each team's clicks by facet value
  // over the days kept are the most they can have in any of them: a team's top links and values are looked for
  // among its busiest first (operations/team-ranking.ts). Visitor marks and keys are today's only: no mark outlives
  // its day's key, so nobody can tell afterwards who made one. The day indexes let the retention job delete old days
  // in batches; clicks get one for the same job.
  (d) => {
    const withoutRowid = d.name === 'sqlite' ? ' WITHOUT ROWID' : '';
    return `${clickCounts(d, 'link_id', 'links')}${clickCounts(d, 'team_id', 'teams')}
  CREATE INDEX IF NOT EXISTS click_days_by_team ON click_days(team_id, day, link_id, clicks, visitors);
  CREATE TABLE IF NOT EXISTS click_links (
    link_id TEXT PRIMARY KEY REFERENCES links(id) ON DELETE CASCADE,
    team_id TEXT NOT NULL,
    clicks ${d.name === 'sqlite' ? 'INTEGER' : 'bigint'} NOT NULL
  )${withoutRowid};
  CREATE INDEX IF NOT EXISTS click_links_by_team ON click_links(team_id, clicks DESC, link_id);
  CREATE TABLE IF NOT EXISTS team_click_values (
    team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
    facet TEXT NOT NULL,
    value TEXT NOT NULL,
    count ${d.name === 'sqlite' ? 'INTEGER' : 'bigint'} NOT NULL,
    PRIMARY KEY (team_id, facet, value)
  )${withoutRowid};
  CREATE INDEX IF NOT EXISTS team_click_values_by_count ON team_click_values(team_id, facet, count DESC, value);
  CREATE INDEX IF NOT EXISTS team_click_facets_by_value ON team_click_facets(team_id, facet, value, day, count);
  CREATE TABLE IF NOT EXISTS visitor_marks (
    day TEXT NOT NULL,
    link_id TEXT NOT NULL,
    mark ${d.name === 'sqlite' ? 'BLOB' : 'bytea'} NOT NULL,
    PRIMARY KEY (day, link_id, mark)
  )${withoutRowid};
  CREATE TABLE IF NOT EXISTS visitor_keys (
    day TEXT PRIMARY KEY,
    key ${d.name === 'sqlite' ? 'BLOB' : 'bytea'} NOT NULL
  )${withoutRowid};
  CREATE INDEX IF NOT EXISTS clicks_by_day ON clicks(day);
  `;
  },
  // 6 (SQLite's 25, PostgreSQL's 19): a day's visitors of a link as one HyperLogLog sketch (analytics/visitor-sketch.ts)
  // instead of one mark per visitor: a write merges a sketch per link clicked, not a row per click, and the sketch
  // holds no visitor's hash, only each register's highest rank. Sketches go with their day's key, as marks did; the
  // marks of a day under way are dropped with their table (that day's visitors already counted stay counted).
  (d) => `
  DROP TABLE IF EXISTS visitor_marks;
  CREATE TABLE IF NOT EXISTS visitor_sketches (
    day TEXT NOT NULL,
    link_id TEXT NOT NULL,
    sketch ${d.name === 'sqlite' ? 'BLOB' : 'bytea'} NOT NULL,
    PRIMARY KEY (day, link_id)
  )${d.name === 'sqlite' ? ' WITHOUT ROWID' : ''};
  `,
  // 7 (SQLite's 26, PostgreSQL's 20): link options (domain/link-options.ts). Links made before keep today's
  // behaviour: no end, no cap, no password, no tags, and the visitor's query string not passed on. A link's tags are
  // kept twice: sorted on the link, read with it; and one row each in link_tags, with the link's seq, for paging a
  // team's links by tag newest first down one index, and counting them.
  (d) => {
    const add = (column: string) => `ALTER TABLE links ADD COLUMN ${d.name === 'postgres' ? 'IF NOT EXISTS ' : ''}${column};`;
    return `
  ${add('expires_at TEXT')}
  ${add(`max_clicks ${d.name === 'sqlite' ? 'INTEGER' : 'integer'}`)}
  ${add('password_hash TEXT')}
  ${add("tags TEXT NOT NULL DEFAULT ''")}
  ${add(`forward_query ${d.name === 'sqlite' ? 'INTEGER NOT NULL DEFAULT 0' : 'boolean NOT NULL DEFAULT false'}`)}
  CREATE TABLE IF NOT EXISTS link_tags (
    link_id TEXT NOT NULL REFERENCES links(id) ON DELETE CASCADE,
    team_id TEXT NOT NULL,
    tag TEXT NOT NULL,
    seq ${d.name === 'sqlite' ? 'INTEGER' : 'bigint'} NOT NULL,
    PRIMARY KEY (link_id, tag)
  )${d.name === 'sqlite' ? ' WITHOUT ROWID' : ''};
  CREATE INDEX IF NOT EXISTS link_tags_by_team ON link_tags(team_id, tag, seq);
  `;
  },
  // 8 (SQLite's 27, PostgreSQL's 21): teams' own short domains (domain/custom-domain.ts). One team a domain (its
  // key); at most one primary a team; the checker reads the due ones by next_check_at. A removed domain, also one
  // whose team was deleted, stays as a row in state 'removed' (so no foreign key to teams): its name answers
  // not-found pages rather than PUBLIC_URL's.
  (d) => `
  CREATE TABLE IF NOT EXISTS team_domains (
    domain TEXT PRIMARY KEY,
    team_id TEXT NOT NULL,
    token TEXT NOT NULL,
    state TEXT NOT NULL,
    proof TEXT NOT NULL,
    is_primary ${d.name === 'sqlite' ? 'INTEGER NOT NULL DEFAULT 0' : 'boolean NOT NULL DEFAULT false'},
    root_url TEXT,
    added_at TEXT NOT NULL,
    verified_at TEXT,
    missing_since TEXT,
    checked_at TEXT,
    next_check_at TEXT,
    problem TEXT
  )${d.name === 'sqlite' ? ' WITHOUT ROWID' : ''};
  CREATE INDEX IF NOT EXISTS team_domains_by_team ON team_domains(team_id);
  CREATE INDEX IF NOT EXISTS team_domains_by_next_check ON team_domains(next_check_at);
  CREATE UNIQUE INDEX IF NOT EXISTS team_domains_one_primary ON team_domains(team_id) WHERE is_primary;
  `,
  // 9 (SQLite's 28, PostgreSQL's 22): imports (imports/run-import.ts) find a team's link by its destination, to skip
  // a row made before. PostgreSQL's btree keeps entries under about 2,700 bytes, less than the longest destination
  // written as a URL may be, so there the index is a hash of it (equality is all it answers); SQLite's has no limit.
  (d) =>
    d.name === 'sqlite'
      ? 'CREATE INDEX IF NOT EXISTS links_by_destination ON links(team_id, destination);'
      : 'CREATE INDEX IF NOT EXISTS links_by_destination ON links USING hash (destination);',
  // 10 (SQLite's 29, PostgreSQL's 23): teams' webhook endpoints and their outbox (webhooks/). Events space-separated;
  // the secret kept as it is, since signing needs it. A delivery per event and endpoint, keyed so, with epoch
  // milliseconds for its times (as the mail outbox); both go with their team, and deliveries with their endpoint.
  (d) => `
  CREATE TABLE IF NOT EXISTS webhook_endpoints (
    id TEXT PRIMARY KEY,
    team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
    url TEXT NOT NULL,
    events TEXT NOT NULL,
    secret TEXT NOT NULL,
    state TEXT NOT NULL,
    paused_reason TEXT,
    failing_since TEXT,
    created_at TEXT NOT NULL
  );
  CREATE INDEX IF NOT EXISTS webhook_endpoints_by_team ON webhook_endpoints(team_id);
  CREATE TABLE IF NOT EXISTS webhook_deliveries (
    event_id TEXT NOT NULL,
    endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
    type TEXT NOT NULL,
    payload TEXT NOT NULL,
    created_at ${d.name === 'sqlite' ? 'INTEGER' : 'bigint'} NOT NULL,
    attempts INTEGER NOT NULL,
    state TEXT NOT NULL,
    due_at ${d.name === 'sqlite' ? 'INTEGER' : 'bigint'} NOT NULL,
    holder TEXT,
    last_status INTEGER,
    last_error TEXT,
    last_attempt_at ${d.name === 'sqlite' ? 'INTEGER' : 'bigint'},
    finished_at ${d.name === 'sqlite' ? 'INTEGER' : 'bigint'},
    PRIMARY KEY (event_id, endpoint_id)
  );
  CREATE INDEX IF NOT EXISTS webhook_deliveries_due ON webhook_deliveries(state, due_at);
  CREATE INDEX IF NOT EXISTS webhook_deliveries_by_endpoint ON webhook_deliveries(endpoint_id, created_at);
  CREATE INDEX IF NOT EXISTS webhook_deliveries_finished ON webhook_deliveries(finished_at);
  `,
];

/**
 * Migration 5's counts of a link (`link_id`: click_facets, click_uncounted, click_days, the last with the link's
 * team) or of a team (`team_id`: the same tables prefixed `team_`), each gone with its owner, each with an index on
 * its day for the retention job.
 */
function clickCounts(d: Dialect, owner: 'link_id' | 'team_id', parent: string): string {
  const count = (name: string) => `${name} ${d.name === 'sqlite' ? 'INTEGER' : 'bigint'} NOT NULL`;
  const table = (name: string, columns: string[], key: string[]) => `
  CREATE TABLE IF NOT EXISTS ${name} (
    ${owner} TEXT NOT NULL REFERENCES ${parent}(id) ON DELETE CASCADE,
    ${columns.join(',\n    ')},
    PRIMARY KEY (${[owner, ...key].join(', ')})
  )${d.name === 'sqlite' ? ' WITHOUT ROWID' : ''};
  CREATE INDEX IF NOT EXISTS ${name}_by_day ON ${name}(day);`;
  const prefix = owner === 'team_id' ? 'team_' : '';
  const team = owner === 'link_id' ? ['team_id TEXT NOT NULL'] : [];
  return [
    table(`${prefix}click_facets`, ['facet TEXT NOT NULL', 'day TEXT NOT NULL', 'value TEXT NOT NULL', count('count')], ['facet', 'day', 'value']),
    table(`${prefix}click_uncounted`, ['day TEXT NOT NULL', 'class TEXT NOT NULL', count('count')], ['day', 'class']),
    table(`${prefix}click_days`, ['day TEXT NOT NULL', ...team, count('clicks'), count('visitors')], ['day']),
  ].join('');
}

/**
 * The migrations of one database in the order they apply, as it numbers them (version n is the n-th): its own
 * frozen `history`, then `shared` in its dialect. `shared` is the list above; a test may append to it.
 */
export function migrationsOf(
  history: readonly string[],
  dialect: Dialect['name'],
  shared: readonly DialectText[] = sharedMigrations,
): readonly string[] {
  return [...history, ...shared.map((migration) => textFor(migration, dialect))];
}
