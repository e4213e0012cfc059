import { migrationsOf } from '../sql/migrations.js';

/**
 * The PostgreSQL store's own forward-only schema migrations, 1 to 13, frozen: a new migration is appended to the
 * shared list (sql/migrations.ts), which PostgreSQL numbers from 14. A shipped migration is never edited.
 *
 * Migration 1 is the SQLite store's schema after its nine migrations (src/store/sqlite/migrations.ts), table for
 * table and column for column, in the same column order; test/store/postgres-schema.test.ts keeps the two from
 * drifting. Where the PostgreSQL form differs, and why:
 * - WITHOUT ROWID: no such thing; every table is a heap with its primary key as a btree index.
 * - BLOB → bytea (hashes). Epoch milliseconds (link_events.at, idempotency.created_at), links.seq and clicks.count
 *   → bigint; database.ts reads bigint as a JavaScript number. Other times stay ISO 8601 text as in SQLite, so both
 *   adapters hand the ports the same strings.
 * - 0/1 flags (people.added_by_operator, people.operator, tokens.limited, names.retired) → boolean: the adapter maps true/false
 *   where the SQLite one maps 1/0.
 * - people.email: SQLite's COLLATE NOCASE becomes a unique index on lower(email). Emails are stored lowercased
 *   (emailOrNull) anyway; lookups that want the index write `lower(email) = lower($1)`.
 * - links.seq: INTEGER PRIMARY KEY (rowid) → an identity column. SQLite may hand the last deleted link's seq to
 *   the next link; PostgreSQL never reuses one. Neither is visible to clients. Unlike SQLite's single writer,
 *   concurrent transactions may commit seqs out of order, which keyset paging by seq must keep in mind.
 * - links_search and links_search_short (FTS5 trigram tables kept by six triggers) → one GIN index that PostgreSQL
 *   keeps itself: migration 1's trigram index links_search, replaced by migration 6's links_search_grams.
 * - teams.link_count: the same two triggers (insert, delete), run once per statement rather than per row.
 * - Migrations 8 and 9 update existing rows only (added_by_operator for CLI-made people, a renamed limits key);
 *   a new PostgreSQL database has none, so only migration 8's column is here.
 */
/**
 * Every 1-, 2- and 3-character substring ("gram") of a link's search text, for the index of migration 6 (made by
 * migration 6, made again by migration 9; see there). The bucket is worked out here (seq >> 13, as
 * link_search_bucket does) rather than called by its bare name, which pg_restore's empty search_path cannot find.
 */
const LINK_SEARCH_GRAMS = `
  CREATE OR REPLACE FUNCTION link_search_grams(team text, seq bigint, search_text text) RETURNS text[]
  LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
  DECLARE
    -- A regexp_replace replacement, whose backslashes (chr(92)) are special: doubled in the team id to stay literal.
    prefix text := replace(team, chr(92), chr(92) || chr(92)) || chr(2) || (seq >> 13) || chr(2);
    grams text := prefix || chr(92) || '3' || chr(1) || prefix || chr(92) || '2' || chr(1) || prefix || chr(92) || '1' || chr(1);
    padded text := search_text || chr(1) || chr(1);
  BEGIN
    RETURN string_to_array(regexp_replace(padded, '(((.).).)', grams, 'g'), chr(1))
      || string_to_array(regexp_replace(substr(padded, 2), '(((.).).)', grams, 'g'), chr(1))
      || string_to_array(regexp_replace(substr(padded, 3), '(((.).).)', grams, 'g'), chr(1));
  END
  $$;
`;

export const postgresHistory: readonly string[] = [
  `
  -- Trusted extensions (PostgreSQL 13+): the database owner may create them without being a superuser.
  -- btree_gin lets one GIN index hold team_id next to the trigrams, so a search stays within one team.
  CREATE EXTENSION IF NOT EXISTS pg_trgm;
  CREATE EXTENSION IF NOT EXISTS btree_gin;

  CREATE TABLE settings (key text PRIMARY KEY, value text NOT NULL);

  CREATE TABLE people (
    id text PRIMARY KEY,
    email text NOT NULL,
    password_hash text,
    agreed_terms_at text,
    created_at text NOT NULL,
    added_by_operator boolean NOT NULL DEFAULT false
  );
  CREATE UNIQUE INDEX people_email_nocase ON people (lower(email));

  CREATE TABLE teams (
    id text PRIMARY KEY,
    name text NOT NULL,
    created_at text NOT NULL,
    link_count integer NOT NULL DEFAULT 0
  );

  CREATE TABLE members (
    team_id text NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
    person_id text NOT NULL REFERENCES people(id) ON DELETE CASCADE,
    role text NOT NULL DEFAULT 'member',
    added_at text NOT NULL,
    PRIMARY KEY (team_id, person_id)
  );
  CREATE INDEX members_by_person ON members(person_id, team_id);

  -- team_id has no foreign key on purpose: a token outlives its team and then answers token_record_left.
  CREATE TABLE tokens (
    id text PRIMARY KEY,
    secret_hash bytea NOT NULL,
    person_id text NOT NULL REFERENCES people(id) ON DELETE CASCADE,
    team_id text NOT NULL,
    scopes text,
    limited boolean NOT NULL DEFAULT false,
    created_at text NOT NULL,
    last_used_at text,
    expires_at text,
    revoked_at text
  );

  CREATE TABLE links (
    seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id text NOT NULL UNIQUE,
    team_id text NOT NULL REFERENCES teams(id),
    code text NOT NULL UNIQUE,
    name text UNIQUE,
    destination text NOT NULL,
    note text,
    state text NOT NULL CHECK (state IN ('active', 'flagged', 'disabled')),
    created_at text NOT NULL,
    changed_at text
  );
  CREATE INDEX links_by_team ON links(team_id, seq);
  CREATE INDEX links_by_team_state ON links(team_id, state, seq);

  -- Every code ever issued, deleted links' included: a code is never issued twice.
  CREATE TABLE codes (code text PRIMARY KEY);

  -- Every short link name ever used. link_id set: held by that link. link_id null: kept by the team after a
  -- rename (only that team may take it again). retired: the name of a deleted link, never issued again.
  CREATE TABLE names (
    name text PRIMARY KEY,
    team_id text NOT NULL,
    link_id text,
    retired boolean NOT NULL DEFAULT false
  );

  -- Creations and changes, counted in rolling windows for the limits; they outlive the links they were about.
  CREATE TABLE link_events (team_id text NOT NULL, kind text NOT NULL, at bigint NOT NULL);
  CREATE INDEX link_events_window ON link_events(team_id, kind, at);

  CREATE TABLE clicks (
    link_id text NOT NULL REFERENCES links(id) ON DELETE CASCADE,
    day text NOT NULL,
    count bigint NOT NULL,
    PRIMARY KEY (link_id, day)
  );

  CREATE TABLE reports (
    id text PRIMARY KEY,
    link_id text NOT NULL REFERENCES links(id) ON DELETE CASCADE,
    person_id text NOT NULL,
    reason text NOT NULL,
    created_at text NOT NULL,
    resolved_at text
  );
  CREATE UNIQUE INDEX reports_open_once ON reports(link_id, person_id) WHERE resolved_at IS NULL;

  CREATE TABLE reviews (
    id text PRIMARY KEY,
    link_id text NOT NULL REFERENCES links(id) ON DELETE CASCADE,
    person_id text NOT NULL,
    reason text,
    created_at text NOT NULL,
    resolved_at text
  );
  -- One open review request per person and link (asking again updates the reason).
  CREATE UNIQUE INDEX reviews_open_once ON reviews(link_id, person_id) WHERE resolved_at IS NULL;

  CREATE TABLE blocked_domains (domain text PRIMARY KEY, created_at text NOT NULL);

  CREATE TABLE idempotency (
    person_id text NOT NULL,
    operation text NOT NULL,
    key text NOT NULL,
    body_hash text NOT NULL,
    status integer,
    response text,
    created_at bigint NOT NULL,
    PRIMARY KEY (person_id, operation, key)
  );
  CREATE INDEX idempotency_by_age ON idempotency(created_at);

  -- Each team's number of live links, kept here so team_full and listLinks' choice of plan read one row instead
  -- of counting the team's links. Links never move between teams, so updates need no trigger. Per statement, not
  -- per row as in SQLite: updating one team row once per link inserted in one statement costs time quadratic in
  -- the number of links (each update walks the row's earlier versions), 8 s for 20,000.
  CREATE FUNCTION teams_count_links() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    UPDATE teams SET link_count = link_count + CASE TG_OP WHEN 'INSERT' THEN counted.links ELSE -counted.links END
    FROM (SELECT team_id, count(*) AS links FROM changed GROUP BY team_id) AS counted
    WHERE teams.id = counted.team_id;
    RETURN NULL;
  END
  $$;
  CREATE TRIGGER teams_count_insert AFTER INSERT ON links
    REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION teams_count_links();
  CREATE TRIGGER teams_count_delete AFTER DELETE ON links
    REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION teams_count_links();

  -- Substring search for listLinks q: a case-insensitive substring of code, name, destination or note.
  -- link_search_text is what is searched: the four columns lowercased, joined by U+0001, which stored values never
  -- hold (see spaced-text.ts), so no match spans two columns. Lowercasing uses the ICU root locale, not the
  -- database's: the same full Unicode mapping as JavaScript's toLowerCase, which the SQLite adapter uses, whatever
  -- locale the database was made with (needs PostgreSQL built with ICU, as Debian's and the Docker images are).
  CREATE FUNCTION link_search_text(code text, name text, destination text, note text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT lower((code || chr(1) || coalesce(name, '') || chr(1) || destination || chr(1) || coalesce(note, ''))
      COLLATE "und-x-icu")
  $$;
  -- The LIKE pattern for q: lowercased the same way, LIKE's wildcards escaped, null (matches nothing) when q holds
  -- the separator. It returns the default collation, as link_search_text does: a pattern in another collation
  -- would not match the index.
  CREATE FUNCTION link_search_pattern(q text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN strpos(q, chr(1)) > 0 THEN NULL ELSE '%' || replace(replace(replace(
      lower(q COLLATE "und-x-icu"), '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%' END
  $$;
  -- Serves \`team_id = $1 AND link_search_text(code, name, destination, note) LIKE link_search_pattern($2)\`, the
  -- call written exactly so. Trigrams need a q of 3+ characters; a q of 1–2 characters (which SQLite serves from
  -- links_search_short) is better answered by walking links_by_team newest-first and filtering.
  CREATE INDEX links_search ON links
    USING gin (team_id, link_search_text(code, name, destination, note) gin_trgm_ops);

  -- Signed-in browser sessions of the web app.
  CREATE TABLE web_sessions (
    id_hash bytea PRIMARY KEY,
    person_id text NOT NULL REFERENCES people(id) ON DELETE CASCADE,
    csrf_secret text NOT NULL,
    created_at text NOT NULL,
    expires_at text NOT NULL
  );
  CREATE INDEX web_sessions_by_expiry ON web_sessions(expires_at);

  -- OAuth for assistants: clients (registered, or client ID metadata documents cached), the grants people
  -- approved, authorization codes and tokens. Codes and tokens are kept only as SHA-256 hashes.
  CREATE TABLE oauth_clients (
    id text PRIMARY KEY,
    kind text NOT NULL CHECK (kind IN ('registered', 'metadata_document')),
    secret_hash bytea,
    name text,
    redirect_uris text NOT NULL,
    metadata text NOT NULL,
    created_at text NOT NULL,
    fresh_until text
  );
  CREATE INDEX oauth_clients_by_age ON oauth_clients(kind, created_at);

  CREATE TABLE oauth_grants (
    id text PRIMARY KEY,
    person_id text NOT NULL REFERENCES people(id) ON DELETE CASCADE,
    client_id text NOT NULL REFERENCES oauth_clients(id) ON DELETE CASCADE,
    scopes text NOT NULL,
    created_at text NOT NULL,
    last_used_at text,
    UNIQUE (person_id, client_id)
  );
  CREATE INDEX oauth_grants_by_client ON oauth_grants(client_id);

  CREATE TABLE oauth_codes (
    code_hash bytea PRIMARY KEY,
    grant_id text NOT NULL REFERENCES oauth_grants(id) ON DELETE CASCADE,
    redirect_uri text NOT NULL,
    code_challenge text NOT NULL,
    scopes text NOT NULL,
    resource text NOT NULL,
    expires_at text NOT NULL,
    used_at text
  );
  CREATE INDEX oauth_codes_by_grant ON oauth_codes(grant_id);
  CREATE INDEX oauth_codes_by_expiry ON oauth_codes(expires_at);

  CREATE TABLE oauth_tokens (
    token_hash bytea PRIMARY KEY,
    kind text NOT NULL CHECK (kind IN ('access', 'refresh')),
    grant_id text NOT NULL REFERENCES oauth_grants(id) ON DELETE CASCADE,
    family text NOT NULL,
    scopes text NOT NULL,
    resource text NOT NULL,
    created_at text NOT NULL,
    expires_at text NOT NULL,
    used_at text
  );
  CREATE INDEX oauth_tokens_by_grant ON oauth_tokens(grant_id);
  CREATE INDEX oauth_tokens_by_family ON oauth_tokens(family);
  CREATE INDEX oauth_tokens_by_expiry ON oauth_tokens(expires_at);

  -- One-time links where a person sets their password (made by the operator CLI); kept only as SHA-256 hashes.
  CREATE TABLE password_links (
    token_hash bytea PRIMARY KEY,
    person_id text NOT NULL REFERENCES people(id) ON DELETE CASCADE,
    created_at text NOT NULL,
    expires_at text NOT NULL,
    used_at text
  );
  CREATE INDEX password_links_by_person ON password_links(person_id);
  `,
  // 2 (SQLite's 10): MCP 2025-11-25 sessions live in their ids; the database keeps only what every process must see
  // at once: the sessions their clients ended, and a client's answers to questions another process is waiting on.
  `
  CREATE TABLE mcp_ended_sessions (
    session_hash bytea PRIMARY KEY,
    expires_at text NOT NULL
  );
  CREATE INDEX mcp_ended_sessions_by_expiry ON mcp_ended_sessions(expires_at);

  CREATE TABLE mcp_answers (
    session_hash bytea NOT NULL,
    question_id text NOT NULL,
    answer text NOT NULL,
    expires_at text NOT NULL,
    PRIMARY KEY (session_hash, question_id)
  );
  CREATE INDEX mcp_answers_by_expiry ON mcp_answers(expires_at);
  `,
  // 3 (SQLite's 11): rate limits shared by every process on the database (store/operations/rates.ts). A row is one
  // allowed call, counted until `until` (epoch ms); `seq` numbers a key's rows, so a count is the newest's less the
  // oldest's, not a scan. The index on `until` alone lets any process sweep the rows that stopped counting.
  `
  CREATE TABLE rate_events (
    key text NOT NULL,
    until bigint NOT NULL,
    seq bigint NOT NULL,
    PRIMARY KEY (key, until, seq)
  );
  CREATE INDEX rate_events_by_until ON rate_events(until);

  CREATE TABLE failure_streaks (key text PRIMARY KEY, failures integer NOT NULL, last_at bigint NOT NULL);
  `,
  // 4 (SQLite's 13): named leases, so that work meant for one process at a time (the daily unsafe-site re-check)
  // runs on one process however many share the database. until: epoch ms. (SQLite's 12, link_changes, has no
  // counterpart: PostgreSQL tells other processes of link changes by LISTEN/NOTIFY, changes.ts.)
  `
  CREATE TABLE leases (name text PRIMARY KEY, holder text NOT NULL, until bigint NOT NULL);
  `,
  // 5 (SQLite's 14): a label the person gives a token, so that a list of tokens tells them apart (null: none given).
  `
  ALTER TABLE tokens ADD COLUMN label text;
  `,
  // 6 (no SQLite counterpart): listLinks q fast for every q (search.ts). The trigram index of migration 1 cannot
  // serve a q of 1–2 characters, ignores punctuation (for a URL-like q such as "docs/docs/docs" it handed over
  // nearly every link with the same words to recheck) and yields its links in no order, so a q held by some hundreds
  // of links read them all. In its place: a GIN index over each link's grams, kept apart by team and range of seq.
  `
  -- A link's bucket: its seq in ranges of 8,192, which a link keeps for life. A search reads a team's buckets newest
  -- first and stops once its page is full, so it reads the candidates of a bucket or two, not of the whole team.
  CREATE FUNCTION link_search_bucket(seq bigint) RETURNS bigint
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$ SELECT seq >> 13 $$;
  -- Every 1-, 2- and 3-character substring ("gram") of a link's search text (link_search_text), each behind the
  -- team's id and the bucket (team U+0002 bucket U+0002 gram), so that one index entry holds one team's links of one
  -- bucket. Three passes of a 3-character regexp at offsets 0, 1 and 2 start a match at every position; each match
  -- gives its first 1, 2 and 3 characters. The text ends with two U+0001 so that the last characters start a match
  -- too. Grams across two columns (holding U+0001) are cut there and leave only fragments without the full prefix,
  -- which no query asks for; team ids never hold U+0001 or U+0002. About 25 µs a link, 3× less than a loop in SQL.
  ${LINK_SEARCH_GRAMS}
  -- Grams that every link holding q holds: q lowercased as link_search_text is, whole if it has 1–3 characters (then
  -- holding the gram is holding q), else its distinct 3-character grams, 6 at most, spread over q from first to last
  -- (each costs an index lookup per bucket, and 6 leave few links to test). Null, matching nothing, when q holds the
  -- separator, as link_search_pattern. PL/pgSQL, whose plans are kept: a search works it out once, while planning.
  CREATE FUNCTION link_search_query_grams(q text) RETURNS text[]
  LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
  DECLARE
    lowered text := lower(q COLLATE "und-x-icu");
    grams text[] := '{}';
    gram text;
  BEGIN
    IF strpos(q, chr(1)) > 0 THEN RETURN NULL; END IF;
    IF length(lowered) <= 3 THEN RETURN ARRAY[lowered]; END IF;
    FOR i IN 1 .. length(lowered) - 2 LOOP
      gram := substr(lowered, i, 3);
      IF NOT gram = ANY (grams) THEN grams := grams || gram; END IF;
    END LOOP;
    IF cardinality(grams) <= 6 THEN RETURN grams; END IF;
    RETURN ARRAY(SELECT grams[1 + k * (cardinality(grams) - 1) / 5] FROM generate_series(0, 5) AS k);
  END
  $$;
  -- Those grams as the index holds them for the team's links of one bucket.
  CREATE FUNCTION link_search_bucket_grams(team text, bucket bigint, grams text[]) RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT string_to_array(team || chr(2) || bucket || chr(2) || array_to_string(grams, chr(1) || team || chr(2) || bucket || chr(2)), chr(1))
  $$;
  CREATE INDEX links_search_grams ON links
    USING gin (link_search_grams(team_id, seq, link_search_text(code, name, destination, note)));
  DROP INDEX links_search;
  `,
  // 7 (no SQLite counterpart, whose write transaction holds the whole file): a take of the rate limiter adds its
  // calls in one statement that checks, under the keys' locks and with a fresh snapshot (VOLATILE: each statement
  // inside sees what committed before it), that no process added a call of these keys since the take read them;
  // false (adding nothing) when one did. A take is then two round trips, a read and this, instead of five (BEGIN,
  // lock, read, insert, COMMIT). The newest row of a key is its highest seq: until never goes down within a key.
  `
  CREATE FUNCTION rate_events_add(keys text[], untils bigint[], seqs bigint[], now_ms bigint, lock_seed bigint)
  RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
  BEGIN
    PERFORM pg_advisory_xact_lock(h) FROM unnest(ARRAY(
      SELECT DISTINCT hashtextextended(k, lock_seed) FROM unnest(keys) AS k ORDER BY 1)) AS h;
    IF EXISTS (
      SELECT 1 FROM (SELECT k, min(s) AS first FROM unnest(keys, seqs) AS a(k, s) GROUP BY k) AS a
      WHERE EXISTS (
        SELECT 1 FROM (SELECT r.until, r.seq FROM rate_events r WHERE r.key = a.k ORDER BY r.until DESC, r.seq DESC LIMIT 1) AS n
        WHERE n.until > now_ms AND n.seq >= a.first)
    ) THEN
      RETURN false;
    END IF;
    INSERT INTO rate_events (key, until, seq) SELECT * FROM unnest(keys, untils, seqs);
    RETURN true;
  END
  $$;
  `,
  // 8 (SQLite's 15): operators of the web app's moderation pages (`shortlinks person admin --email E [--off]`).
  `
  ALTER TABLE people ADD COLUMN operator boolean NOT NULL DEFAULT false;
  `,
  // 9 (no SQLite counterpart): link_search_grams works out the bucket itself (seq >> 13, as link_search_bucket does)
  // rather than calling link_search_bucket by its bare name. pg_restore builds indexes with an empty search_path,
  // where that name is not found: restoring a pg_dump failed at the links' search index, leaving it out. Same
  // results for every link, so the index made with the old body stays right. (A database made since gets this body
  // from migration 6 already.)
  LINK_SEARCH_GRAMS,
  // 10 (no SQLite counterpart): rate_events_add as migration 7 should have made it. Migration 7's check (no call of
  // the keys newer than the take read, still counted at now_ms) lost a call when a take was overtaken by a later
  // one; this one adds only if each key's newest row is still the one the take read (null: none), so no process
  // took from it or swept it since, under the keys' locks and with a fresh snapshot (VOLATILE). Migration 7 stays as
  // it was shipped, so a database that applied it comes here too; the old signature is dropped.
  `
  DROP FUNCTION IF EXISTS rate_events_add(text[], bigint[], bigint[], bigint, bigint);
  CREATE OR REPLACE FUNCTION rate_events_add(keys text[], untils bigint[], seqs bigint[],
    read_keys text[], read_untils bigint[], read_seqs bigint[], lock_seed bigint)
  RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
  BEGIN
    PERFORM pg_advisory_xact_lock(h) FROM unnest(ARRAY(
      SELECT DISTINCT hashtextextended(k, lock_seed) FROM unnest(read_keys) AS k ORDER BY 1)) AS h;
    IF EXISTS (
      SELECT 1 FROM unnest(read_keys, read_untils, read_seqs) AS r(k, u, s)
      LEFT JOIN LATERAL (
        SELECT e.until, e.seq FROM rate_events e WHERE e.key = r.k ORDER BY e.until DESC, e.seq DESC LIMIT 1) AS n ON true
      WHERE n.until IS DISTINCT FROM r.u OR n.seq IS DISTINCT FROM r.s
    ) THEN
      RETURN false;
    END IF;
    INSERT INTO rate_events (key, until, seq) SELECT * FROM unnest(keys, untils, seqs);
    RETURN true;
  END
  $$;
  `,
  // 11 (SQLite's 16): invitations to join a team, by email (stored lowercased, as people's emails are).
  `
  CREATE TABLE team_invitations (
    team_id text NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
    email text NOT NULL,
    invited_by text REFERENCES people(id) ON DELETE SET NULL,
    created_at text NOT NULL,
    PRIMARY KEY (team_id, email)
  );
  CREATE INDEX team_invitations_by_email ON team_invitations (email);
  CREATE INDEX team_invitations_by_age ON team_invitations (created_at);
  `,
  // 12 (SQLite's 17): a question put to a 2025-11-25 session's client is recorded when it is asked, so that only an
  // answer to a question still open in its session is ever written, and open questions can be counted per person.
  // `answer` is null until the client answers. Answers in flight are dropped with mcp_answers (see SQLite's 17).
  // (IF [NOT] EXISTS: tests of earlier migrations set the version back and run the later ones again.)
  `
  DROP TABLE IF EXISTS mcp_answers;
  CREATE TABLE IF NOT EXISTS mcp_questions (
    question_id text PRIMARY KEY,
    session_hash bytea NOT NULL,
    person_id text NOT NULL,
    answer text,
    expires_at text NOT NULL
  );
  CREATE INDEX IF NOT EXISTS mcp_questions_by_person ON mcp_questions (person_id, expires_at);
  CREATE INDEX IF NOT EXISTS mcp_questions_by_expiry ON mcp_questions (expires_at);
  `,
  // 13 (SQLite's 18): an idempotency claim is held for seconds past its process's last hold (epoch ms).
  // (IF NOT EXISTS: tests of earlier migrations set the version back and run the later ones again.)
  `
  ALTER TABLE idempotency ADD COLUMN IF NOT EXISTS held_until bigint NOT NULL DEFAULT 0;
  UPDATE idempotency SET held_until = created_at + 300000 WHERE status IS NULL;
  `,
];

/**
 * Every migration of the PostgreSQL store in the order they apply; `schema_migrations` records which are applied
 * (database.ts).
 */
export const migrations = migrationsOf(postgresHistory, 'postgres');
