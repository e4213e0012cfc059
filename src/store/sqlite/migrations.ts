import { migrationsOf } from '../sql/migrations.js';

/**
 * The SQLite store's own forward-only schema migrations, 1 to 19, frozen: a new migration is appended to the shared
 * list (sql/migrations.ts), which SQLite numbers from 20. docs/storage-schema.md describes every table.
 */
export const sqliteHistory: readonly string[] = [
  `
  CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;

  CREATE TABLE people (
    id TEXT PRIMARY KEY,
    email TEXT NOT NULL UNIQUE COLLATE NOCASE,
    password_hash TEXT,
    agreed_terms_at TEXT,
    created_at TEXT NOT NULL
  );

  CREATE TABLE teams (id TEXT PRIMARY KEY, name TEXT NOT NULL, created_at TEXT NOT NULL);

  CREATE TABLE members (
    team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
    person_id TEXT NOT NULL REFERENCES people(id) ON DELETE CASCADE,
    role TEXT NOT NULL DEFAULT 'member',
    added_at TEXT NOT NULL,
    PRIMARY KEY (team_id, person_id)
  ) WITHOUT ROWID;
  CREATE INDEX members_by_person ON members(person_id, team_id);

  -- team_id has no foreign key on purpose: a token outlives its team and then answers token_record_left.
  CREATE TABLE tokens (
    id TEXT PRIMARY KEY,
    secret_hash BLOB NOT NULL,
    person_id TEXT NOT NULL REFERENCES people(id) ON DELETE CASCADE,
    team_id TEXT NOT NULL,
    scopes TEXT,
    limited INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    last_used_at TEXT,
    expires_at TEXT,
    revoked_at TEXT
  );

  CREATE TABLE links (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    team_id TEXT NOT NULL REFERENCES teams(id),
    code TEXT NOT NULL UNIQUE,
    name TEXT UNIQUE,
    destination TEXT NOT NULL,
    note TEXT,
    state TEXT NOT NULL CHECK (state IN ('active', 'flagged', 'disabled')),
    created_at TEXT NOT NULL,
    changed_at TEXT
  );
  CREATE INDEX links_by_team ON links(team_id, seq);
  CREATE INDEX links_by_team_state ON links(team_id, state, seq);

  -- Every code ever issued, deleted links' included: a code is never issued twice.
  CREATE TABLE codes (code TEXT PRIMARY KEY) WITHOUT ROWID;

  -- Every short link name ever used. link_id set: held by that link. link_id null: kept by the team after a
  -- rename (only that team may take it again). retired = 1: the name of a deleted link, never issued again.
  CREATE TABLE names (
    name TEXT PRIMARY KEY,
    team_id TEXT NOT NULL,
    link_id TEXT,
    retired INTEGER NOT NULL DEFAULT 0
  ) WITHOUT ROWID;

  -- Creations and changes, counted in rolling windows for the limits; they outlive the links they were about.
  CREATE TABLE link_events (team_id TEXT NOT NULL, kind TEXT NOT NULL, at INTEGER NOT NULL);
  CREATE INDEX link_events_window ON link_events(team_id, kind, at);

  CREATE TABLE clicks (
    link_id TEXT NOT NULL REFERENCES links(id) ON DELETE CASCADE,
    day TEXT NOT NULL,
    count INTEGER NOT NULL,
    PRIMARY KEY (link_id, day)
  ) WITHOUT ROWID;

  CREATE TABLE reports (
    id TEXT PRIMARY KEY,
    link_id TEXT NOT NULL REFERENCES links(id) ON DELETE CASCADE,
    person_id TEXT NOT NULL,
    reason TEXT NOT NULL,
    created_at TEXT NOT NULL,
    resolved_at TEXT
  );
  CREATE UNIQUE INDEX reports_open_once ON reports(link_id, person_id) WHERE resolved_at IS NULL;

  CREATE TABLE reviews (
    id TEXT PRIMARY KEY,
    link_id TEXT NOT NULL REFERENCES links(id) ON DELETE CASCADE,
    person_id TEXT NOT NULL,
    reason TEXT,
    created_at TEXT NOT NULL,
    resolved_at TEXT
  );

  CREATE TABLE blocked_domains (domain TEXT PRIMARY KEY, created_at TEXT NOT NULL) WITHOUT ROWID;

  CREATE TABLE idempotency (
    person_id TEXT NOT NULL,
    operation TEXT NOT NULL,
    key TEXT NOT NULL,
    body_hash TEXT NOT NULL,
    status INTEGER,
    response TEXT,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (person_id, operation, key)
  ) WITHOUT ROWID;
  CREATE INDEX idempotency_by_age ON idempotency(created_at);

  -- Substring search for listLinks q: a trigram index over the searchable columns, in link insertion order.
  CREATE VIRTUAL TABLE links_search USING fts5(
    code, name, destination, note, content='links', content_rowid='seq', tokenize='trigram'
  );
  CREATE TRIGGER links_search_insert AFTER INSERT ON links BEGIN
    INSERT INTO links_search(rowid, code, name, destination, note)
    VALUES (new.seq, new.code, new.name, new.destination, new.note);
  END;
  CREATE TRIGGER links_search_delete AFTER DELETE ON links BEGIN
    INSERT INTO links_search(links_search, rowid, code, name, destination, note)
    VALUES ('delete', old.seq, old.code, old.name, old.destination, old.note);
  END;
  CREATE TRIGGER links_search_update AFTER UPDATE OF name, destination, note ON links BEGIN
    INSERT INTO links_search(links_search, rowid, code, name, destination, note)
    VALUES ('delete', old.seq, old.code, old.name, old.destination, old.note);
    INSERT INTO links_search(rowid, code, name, destination, note)
    VALUES (new.seq, new.code, new.name, new.destination, new.note);
  END;
  `,
  // 2: one open review request per person and link (asking again updates the reason).
  `
  CREATE UNIQUE INDEX reviews_open_once ON reviews(link_id, person_id) WHERE resolved_at IS NULL;
  `,
  // 3: each team's number of live links, kept by triggers, so team_full and listLinks' choice of plan read one
  // row instead of counting the team's links.
  `
  ALTER TABLE teams ADD COLUMN link_count INTEGER NOT NULL DEFAULT 0;
  UPDATE teams SET link_count = (SELECT count(*) FROM links WHERE links.team_id = teams.id);
  CREATE TRIGGER teams_count_insert AFTER INSERT ON links BEGIN
    UPDATE teams SET link_count = link_count + 1 WHERE id = new.team_id;
  END;
  CREATE TRIGGER teams_count_delete AFTER DELETE ON links BEGIN
    UPDATE teams SET link_count = link_count - 1 WHERE id = old.team_id;
  END;
  `,
  // 4: a trigram index over spaced-out text (see spaced-text.ts), for listLinks q of 1 or 2 characters in large
  // teams. Contentless: it only ever answers which rowids match. Every connection that writes links registers
  // spaced_text() (openDatabase does).
  `
  CREATE VIRTUAL TABLE links_search_short USING fts5(
    code, name, destination, note, content='', contentless_delete=1, tokenize='trigram'
  );
  INSERT INTO links_search_short(rowid, code, name, destination, note)
    SELECT seq, spaced_text(code), spaced_text(name), spaced_text(destination), spaced_text(note) FROM links;
  CREATE TRIGGER links_search_short_insert AFTER INSERT ON links BEGIN
    INSERT INTO links_search_short(rowid, code, name, destination, note)
    VALUES (new.seq, spaced_text(new.code), spaced_text(new.name), spaced_text(new.destination), spaced_text(new.note));
  END;
  CREATE TRIGGER links_search_short_delete AFTER DELETE ON links BEGIN
    DELETE FROM links_search_short WHERE rowid = old.seq;
  END;
  CREATE TRIGGER links_search_short_update AFTER UPDATE OF name, destination, note ON links BEGIN
    DELETE FROM links_search_short WHERE rowid = old.seq;
    INSERT INTO links_search_short(rowid, code, name, destination, note)
    VALUES (new.seq, spaced_text(new.code), spaced_text(new.name), spaced_text(new.destination), spaced_text(new.note));
  END;
  `,
  // 5: signed-in browser sessions of the web app.
  `
  CREATE TABLE web_sessions (
    id_hash BLOB PRIMARY KEY,
    person_id TEXT NOT NULL REFERENCES people(id) ON DELETE CASCADE,
    csrf_secret TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX web_sessions_by_expiry ON web_sessions(expires_at);
  `,
  // 6: OAuth for assistants: clients (registered, or client ID metadata documents cached), the grants people
  // approved, authorization codes and tokens. Codes and tokens are kept only as SHA-256 hashes.
  `
  CREATE TABLE oauth_clients (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('registered', 'metadata_document')),
    secret_hash BLOB,
    name TEXT,
    redirect_uris TEXT NOT NULL,
    metadata TEXT NOT NULL,
    created_at TEXT NOT NULL,
    fresh_until TEXT
  );
  CREATE INDEX oauth_clients_by_age ON oauth_clients(kind, created_at);

  CREATE TABLE oauth_grants (
    id TEXT PRIMARY KEY,
    person_id TEXT NOT NULL REFERENCES people(id) ON DELETE CASCADE,
    client_id TEXT NOT NULL REFERENCES oauth_clients(id) ON DELETE CASCADE,
    scopes TEXT NOT NULL,
    created_at TEXT NOT NULL,
    last_used_at TEXT,
    UNIQUE (person_id, client_id)
  );
  CREATE INDEX oauth_grants_by_client ON oauth_grants(client_id);

  CREATE TABLE oauth_codes (
    code_hash BLOB PRIMARY KEY,
    grant_id TEXT NOT NULL REFERENCES oauth_grants(id) ON DELETE CASCADE,
    redirect_uri TEXT NOT NULL,
    code_challenge TEXT NOT NULL,
    scopes TEXT NOT NULL,
    resource TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    used_at TEXT
  ) WITHOUT ROWID;
  CREATE INDEX oauth_codes_by_grant ON oauth_codes(grant_id);
  CREATE INDEX oauth_codes_by_expiry ON oauth_codes(expires_at);

  CREATE TABLE oauth_tokens (
    token_hash BLOB PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('access', 'refresh')),
    grant_id TEXT NOT NULL REFERENCES oauth_grants(id) ON DELETE CASCADE,
    family TEXT NOT NULL,
    scopes TEXT NOT NULL,
    resource TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    used_at TEXT
  ) WITHOUT ROWID;
  CREATE INDEX oauth_tokens_by_grant ON oauth_tokens(grant_id);
  CREATE INDEX oauth_tokens_by_family ON oauth_tokens(family);
  CREATE INDEX oauth_tokens_by_expiry ON oauth_tokens(expires_at);
  `,
  // 7: one-time links where a person sets their password (made by the operator CLI); kept only as SHA-256 hashes.
  `
  CREATE TABLE password_links (
    token_hash BLOB PRIMARY KEY,
    person_id TEXT NOT NULL REFERENCES people(id) ON DELETE CASCADE,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    used_at TEXT
  ) WITHOUT ROWID;
  CREATE INDEX password_links_by_person ON password_links(person_id);
  `,
  // 8: people the operator added with the CLI are established at once: their reports count towards flagging.
  // Sign-up always stores a password hash, so a person without one can only have come from the CLI.
  `
  ALTER TABLE people ADD COLUMN added_by_operator INTEGER NOT NULL DEFAULT 0;
  UPDATE people SET added_by_operator = 1 WHERE password_hash IS NULL;
  `,
  // 9: the limit of links a team may hold is stored as maxLinksPerTeam (it was teamLinks, the word of a tool).
  `
  UPDATE settings
  SET value = json_remove(json_set(value, '$.maxLinksPerTeam', json_extract(value, '$.teamLinks')), '$.teamLinks')
  WHERE key = 'limits' AND json_type(value, '$.teamLinks') IS NOT NULL;
  `,
  // 10: MCP 2025-11-25 sessions live in their ids; the database keeps only what every process must see at once:
  // the sessions their clients ended, and a client's answers to questions another process is waiting on. (IF NOT
  // EXISTS: tests of earlier migrations set the version back and run the later ones again.)
  `
  CREATE TABLE IF NOT EXISTS mcp_ended_sessions (
    session_hash BLOB PRIMARY KEY,
    expires_at TEXT NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS mcp_ended_sessions_by_expiry ON mcp_ended_sessions(expires_at);

  CREATE TABLE IF NOT EXISTS mcp_answers (
    session_hash BLOB NOT NULL,
    question_id TEXT NOT NULL,
    answer TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    PRIMARY KEY (session_hash, question_id)
  ) WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS mcp_answers_by_expiry ON mcp_answers(expires_at);
  `,
  // 11: rate limits shared by every process on the database (store/operations/rates.ts). A row is one allowed call,
  // counted until `until` (epoch ms); `seq` numbers a key's rows, so a count is the newest's less the oldest's, not
  // a scan. The index on `until` alone lets any process sweep the rows that stopped counting. (IF NOT EXISTS, as 10.)
  `
  CREATE TABLE IF NOT EXISTS rate_events (
    key TEXT NOT NULL,
    until INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    PRIMARY KEY (key, until, seq)
  ) WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS rate_events_by_until ON rate_events(until);

  CREATE TABLE IF NOT EXISTS failure_streaks (key TEXT PRIMARY KEY, failures INTEGER NOT NULL, last_at INTEGER NOT NULL) WITHOUT ROWID;
  `,
  // 12: the codes and names each link change touched, so that processes sharing the file (WORKERS=N, the CLI)
  // forget just those links from their redirect caches instead of everything whenever another process writes
  // (click counts, every second). AUTOINCREMENT: a seq is never reused, even after the newest rows are pruned.
  `
  CREATE TABLE IF NOT EXISTS link_changes (seq INTEGER PRIMARY KEY AUTOINCREMENT, keys TEXT NOT NULL);
  `,
  // 13: named leases, so that work meant for one process at a time (the daily unsafe-site re-check) runs on one
  // process however many share the file. until: epoch ms.
  `
  CREATE TABLE IF NOT EXISTS leases (name TEXT PRIMARY KEY, holder TEXT NOT NULL, until INTEGER NOT NULL) WITHOUT ROWID;
  `,
  // 14: a label the person gives a token, so that a list of tokens tells them apart (null: none given).
  `
  ALTER TABLE tokens ADD COLUMN label TEXT;
  `,
  // 15: operators of the web app's moderation pages (`shortlinks person admin --email E [--off]`); nobody at first.
  `
  ALTER TABLE people ADD COLUMN operator INTEGER NOT NULL DEFAULT 0;
  `,
  // 16: invitations to join a team, by email (an account with it may not exist yet): no one is put in a team without
  // saying yes. One per team and email; invited_by is kept while that account is.
  `
  CREATE TABLE IF NOT EXISTS team_invitations (
    team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
    email TEXT NOT NULL,
    invited_by TEXT REFERENCES people(id) ON DELETE SET NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (team_id, email)
  ) WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS team_invitations_by_email ON team_invitations(email);
  CREATE INDEX IF NOT EXISTS team_invitations_by_age ON team_invitations(created_at);
  `,
  // 17: a question put to a 2025-11-25 session's client is recorded when it is asked, so that only an answer to a
  // question still open in its session is ever written (mcp_answers kept whatever looked like one, 4 MiB at a time),
  // and open questions can be counted per person. `answer` is null until the client answers. Answers in flight
  // when this runs are dropped with mcp_answers: their questions lived in the processes the upgrade restarts.
  `
  DROP TABLE IF EXISTS mcp_answers;
  CREATE TABLE IF NOT EXISTS mcp_questions (
    question_id TEXT PRIMARY KEY,
    session_hash BLOB NOT NULL,
    person_id TEXT NOT NULL,
    answer TEXT,
    expires_at TEXT NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS mcp_questions_by_person ON mcp_questions(person_id, expires_at);
  CREATE INDEX IF NOT EXISTS mcp_questions_by_expiry ON mcp_questions(expires_at);
  `,
  // 18: an idempotency claim is held for seconds past its process's last hold (epoch ms), so a retry after a crash
  // takes over the claim of a dead process at once instead of after five minutes. Claims made before this keep
  // those five minutes: their calls still save the answer apart from the write.
  `
  ALTER TABLE idempotency ADD COLUMN held_until INTEGER NOT NULL DEFAULT 0;
  UPDATE idempotency SET held_until = created_at + 300000 WHERE status IS NULL;
  `,
  // 19: the processes counting rate limits on this file, each while it renews its row (epoch ms): one alone counts
  // in its memory, and hands its counts to the file once another comes (counted-alone.ts).
  `
  CREATE TABLE IF NOT EXISTS rate_processes (id TEXT PRIMARY KEY, alone INTEGER NOT NULL, until INTEGER NOT NULL) WITHOUT ROWID;
  `,
];

/** Every migration of the SQLite store in the order they apply; `PRAGMA user_version` holds how many are applied. */
export const migrations = migrationsOf(sqliteHistory, 'sqlite');

/**
 * Ordinary tables that only the SQLite store has: the log of link changes processes sharing the file read to keep
 * their caches exact, and the processes counting rate limits on it. PostgreSQL tells other processes by
 * LISTEN/NOTIFY, and its processes always count in the database, so copy-database leaves them out and the schema
 * test does not look for them there.
 */
export const SQLITE_ONLY_TABLES: readonly string[] = ['link_changes', 'rate_processes'];
