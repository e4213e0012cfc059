import type { ParseArgsConfig } from 'node:util';
import type { Command, StandaloneCommand } from './command.js';
import { LIMIT_FLAGS, type LimitFlag } from '../operator/limit-flags.js';
import { SETTING_FLAGS, type SettingFlag } from '../operator/setting-flags.js';

/**
 * Every flag of every command, for one strict parseArgs pass; which command takes which is checked afterwards
 * against COMMANDS, so a flag given to the wrong command gets a precise error.
 */
export const OPTIONS = {
  email: { type: 'string' },
  password: { type: 'string' },
  'agree-terms': { type: 'boolean' },
  off: { type: 'boolean' },
  name: { type: 'string' },
  owner: { type: 'string' },
  team: { type: 'string' },
  label: { type: 'string' },
  scopes: { type: 'string' },
  limited: { type: 'boolean' },
  domain: { type: 'string' },
  verified: { type: 'boolean' },
  // Strings, not numbers: parseArgs has no number type, and limits.ts reports a bad value itself.
  ...(Object.fromEntries(Object.keys(LIMIT_FLAGS).map((flag) => [flag, { type: 'string' }])) as Record<LimitFlag, { type: 'string' }>),
  preset: { type: 'string' },
  ...(Object.fromEntries(Object.keys(SETTING_FLAGS).map((flag) => [flag, { type: 'string' }])) as Record<SettingFlag, { type: 'string' }>),
  // A postgres:// URL, which may hold a password: never printed back, not even in an error.
  to: { type: 'string' },
  // A string, as the limits' flags are: clicks-export.ts reports a bad value itself.
  days: { type: 'string' },
  // import's and export's file format (imports/formats, exports/): checked by the command, which names the choices.
  format: { type: 'string' },
  'dry-run': { type: 'boolean' },
  // webhook add's address and events (`link.created,link.deleted`), and the endpoint the others name.
  url: { type: 'string' },
  events: { type: 'string' },
  id: { type: 'string' },
  'no-limits': { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies NonNullable<ParseArgsConfig['options']>;

/** Flags every command takes. */
export const COMMON_FLAGS: readonly string[] = ['json', 'help'];

/** One command: its own flags, the names of its positional arguments, and its implementation, loaded on use. */
export interface CommandEntry {
  flags: readonly string[];
  positionals: readonly string[];
  /** Absent for `serve`, which runs the server instead of a command against the store. */
  load?: () => Promise<Command>;
  /** Instead of `load`, for a command that opens no store (see StandaloneCommand). */
  loadStandalone?: () => Promise<StandaloneCommand>;
}

// Dynamic imports: a command loads only its own module, which keeps every start short.
export const COMMANDS: Readonly<Record<string, CommandEntry>> = {
  serve: { flags: [], positionals: [] },
  'person add': { flags: ['email', 'password', 'agree-terms'], positionals: [], load: async () => (await import('./person.js')).personAdd },
  'person reset': { flags: ['email'], positionals: [], load: async () => (await import('./person.js')).personReset },
  'person invite': { flags: ['email'], positionals: [], load: async () => (await import('./person.js')).personInvite },
  'person admin': { flags: ['email', 'off'], positionals: [], load: async () => (await import('./person.js')).personAdmin },
  'team add': { flags: ['name', 'owner'], positionals: [], load: async () => (await import('./team.js')).teamAdd },
  'member add': { flags: ['team', 'email'], positionals: [], load: async () => (await import('./member.js')).memberAdd },
  'member remove': { flags: ['team', 'email'], positionals: [], load: async () => (await import('./member.js')).memberRemove },
  'member promote': { flags: ['team', 'email'], positionals: [], load: async () => (await import('./member.js')).memberPromote },
  'token create': {
    flags: ['email', 'team', 'label', 'scopes', 'limited'],
    positionals: [],
    load: async () => (await import('./token.js')).tokenCreate,
  },
  'token revoke': { flags: [], positionals: ['TOKEN_ID'], load: async () => (await import('./token.js')).tokenRevoke },
  'link flag': { flags: [], positionals: ['CODE'], load: async () => (await import('./link.js')).linkFlag },
  'link disable': { flags: [], positionals: ['CODE'], load: async () => (await import('./link.js')).linkDisable },
  'link restore': { flags: [], positionals: ['CODE'], load: async () => (await import('./link.js')).linkRestore },
  'reports list': { flags: [], positionals: [], load: async () => (await import('./moderation.js')).reportsList },
  'reviews list': { flags: [], positionals: [], load: async () => (await import('./moderation.js')).reviewsList },
  'block add': { flags: [], positionals: ['DOMAIN'], load: async () => (await import('./block.js')).blockAdd },
  'block remove': { flags: [], positionals: ['DOMAIN'], load: async () => (await import('./block.js')).blockRemove },
  'block list': { flags: [], positionals: [], load: async () => (await import('./block.js')).blockList },
  'domain add': { flags: ['team', 'domain', 'verified'], positionals: [], load: async () => (await import('./domain.js')).domainAdd },
  'domain list': { flags: ['team'], positionals: [], load: async () => (await import('./domain.js')).domainList },
  'domain remove': { flags: ['domain'], positionals: [], load: async () => (await import('./domain.js')).domainRemove },
  'limits show': { flags: [], positionals: [], load: async () => (await import('./limits.js')).limitsShow },
  'limits set': { flags: ['preset', ...Object.keys(LIMIT_FLAGS)], positionals: [], load: async () => (await import('./limits.js')).limitsSet },
  'clicks export': { flags: ['team', 'days'], positionals: [], load: async () => (await import('./clicks.js')).clicksExport },
  import: {
    flags: ['team', 'format', 'dry-run', 'no-limits'],
    positionals: ['FILE'],
    load: async () => (await import('./import.js')).linksImport,
  },
  'webhook add': { flags: ['team', 'url', 'events'], positionals: [], load: async () => (await import('./webhook.js')).webhookAdd },
  'webhook list': { flags: ['team'], positionals: [], load: async () => (await import('./webhook.js')).webhookList },
  'webhook remove': { flags: ['id'], positionals: [], load: async () => (await import('./webhook.js')).webhookRemove },
  'webhook resume': { flags: ['id'], positionals: [], load: async () => (await import('./webhook.js')).webhookResume },
  'webhook test': { flags: ['id'], positionals: [], load: async () => (await import('./webhook.js')).webhookTest },
  export: { flags: ['team', 'format'], positionals: [], load: async () => (await import('./export.js')).linksExport },
  'settings show': { flags: [], positionals: [], load: async () => (await import('./settings.js')).settingsShow },
  'settings set': { flags: Object.keys(SETTING_FLAGS), positionals: [], load: async () => (await import('./settings.js')).settingsSet },
  backup: { flags: [], positionals: ['FILE'], loadStandalone: async () => (await import('./backup.js')).backup },
  'copy-database': {
    flags: ['to'],
    positionals: [],
    loadStandalone: async () => (await import('./copy-database.js')).copyDatabase,
  },
};

/** `shortlinks --help`. */
export const USAGE = `Usage: shortlinks <command> [--json]

  serve                                          run the server (PORT, DATABASE_PATH, ... from the environment)
  person add --email E [--password P] [--agree-terms]
                                                 without --password, prints a one-time link (24 hours)
                                                 where the person sets their password
  person reset --email E                         a fresh set-password link; the old password, earlier
                                                 links and the person's web sessions end
  person invite --email E                        prints a sign-up link for the email (one use, 7 days): it
                                                 makes the account while sign-up is invite only
  person admin --email E [--off]                 makes the person an operator of the web app's moderation
                                                 pages (/admin); --off: no longer one
  team add --name N --owner E                    the owner becomes the team's first member
  member add --team TEAM_ID --email E
  member remove --team TEAM_ID --email E         anyone but the team's only owner
  member promote --team TEAM_ID --email E        makes a member an owner of the team too
  token create --email E --team TEAM_ID [--label L] [--scopes op1,op2] [--limited]
                                                 prints the token once; it is stored only as a hash
  token revoke TOKEN_ID
  link flag|disable|restore CODE                 restore also resolves the link's reports and reviews
  reports list                                   marks reports of people not yet established (they do not count)
  reviews list
  block add|remove DOMAIN                        blocks the domain and its subdomains for new destinations
  block list
  domain add --team TEAM_ID --domain D [--verified]
                                                 the team's links answer on D too once a TXT record at
                                                 _shortlinks.D holds the token printed (checked every few
                                                 minutes for a day); --verified: on your word, unchecked
  domain list [--team TEAM_ID]                   every team's domains, or one team's
  domain remove --domain D                       the team's links answer on D no more
  limits show
  limits set [--preset private] [--team-links N] [--per-hour N] [--per-day N] [--first-week-per-day N]
             [--changes-per-hour N] [--calls-per-minute N] [--reports-to-flag N]
             [--established-after-hours N] [--signups-per-hour N] [--teams-per-hour N]
             [--analytics-days N] [--team-domains N]
                                                 --preset private lifts every creation and change limit
                                                 (the calls a minute stay); flags given with it win;
                                                 --analytics-days: days of click analytics kept (≥ 30);
                                                 --team-domains: own domains a team may hold (default 5)
  clicks export --team TEAM_ID [--days N]        the team's clicks and visitors per link and day as CSV
                                                 (stdout holds only the file), the last N days (1 to the
                                                 days analytics are kept; default 30)
  import --team TEAM_ID --format bitly|shlink|kutt|yourls|csv FILE [--dry-run] [--no-limits]
                                                 makes the file's links in the team, each row checked as
                                                 createLink checks; prints every row's outcome; a row
                                                 already in the team is skipped, so it can run again;
                                                 --dry-run: outcomes only, nothing made; --no-limits: the
                                                 team's link limits do not apply
  export --team TEAM_ID [--format csv|jsonl]     the team's links as CSV (default) or JSON lines, on stdout
  webhook add --team TEAM_ID --url U --events E1,E2
                                                 the team's events (link.created, link.changed, link.deleted,
                                                 link.state_changed, clicks.daily) are POSTed to U, signed
                                                 as Standard Webhooks has it; prints the secret once
  webhook list [--team TEAM_ID]                  every team's endpoints, or one team's, with their state
  webhook remove --id WEBHOOK_ID                 nothing more is sent to it
  webhook resume --id WEBHOOK_ID                 a paused endpoint (a day of failed deliveries) gets events again
  webhook test --id WEBHOOK_ID                   sends it a webhook.test event
  settings show                                  the service settings in force
  settings set --signup open|invite|closed       who may make an account: anyone; only an email a team or
                                                 person invite invited; no one (person add makes accounts)
  settings set --destinations public|private    where links may point: public https sites only; also http,
                                                 IP addresses and intranet names (http://wiki/)
  backup FILE                                    a consistent copy of the SQLite database, also while the
                                                 server runs, checked with PRAGMA integrity_check; FILE must
                                                 not exist. Restore: start the server with DATABASE_PATH=FILE.
                                                 PostgreSQL (DATABASE_URL set): use pg_dump instead
  copy-database --to postgres://USER:PASSWORD@HOST:PORT/DATABASE
                                                 copies the SQLite database into an empty PostgreSQL
                                                 database and checks every table's row count; run it
                                                 without DATABASE_URL set

  --json       print one JSON object (the record made or changed, with its id) instead of text
  -h, --help   print this help

Commands work on DATABASE_PATH (default data/shortlinks.db; a relative path is taken from the installation's
folder, not the current one), also while the server runs; the server applies every change on its next request.
Every command names the database it used ("database: <path>", or "created a new database at <path>" when there
was none): in its output, or on stderr with --json. Links it prints start with PUBLIC_URL; without it, with
the address the server last started with (kept in the database), else http://localhost:PORT. Exit status: 0
done, 1 refused (unknown email, team, token or code; a duplicate), 2 bad command line. Errors are one line on
stderr, starting "shortlinks: ".
`;
