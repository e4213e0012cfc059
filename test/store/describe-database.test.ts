import { describe, expect, it } from 'vitest';
import { describeDatabase } from '../../src/store/open.js';
import { databaseLine as lineOf, databaseWarning as warningOf } from '../../src/support/database-line.js';

type Config = Parameters<typeof describeDatabase>[0];

/** The line and the warning, as the CLI and the start-up log make them from the configuration (store/open.ts). */
const databaseLine = (config: Config, created: boolean) => lineOf(describeDatabase(config, created));
const databaseWarning = (config: Config) => warningOf(describeDatabase(config, false));

describe('the line naming the database', () => {
  it('names an SQLite file, calling out one it had to make', () => {
    expect(databaseLine({ databasePath: '/srv/links.db' }, false)).toBe('database: /srv/links.db');
    expect(databaseLine({ databasePath: '/srv/links.db' }, true)).toBe('created a new database at /srv/links.db');
  });

  it('names a PostgreSQL database by host and database, never its password, whatever the file path says', () => {
    const line = databaseLine({ databasePath: '/srv/links.db', databaseUrl: 'postgres://links:s3cret-pw@db.internal:5432/links' }, true);
    expect(line).toBe('database: PostgreSQL at db.internal:5432/links');
    expect(databaseLine({ databasePath: 'x', databaseUrl: 'postgres://u@h/d?password=s3cret-pw' }, false)).not.toContain('s3cret');
  });

  it('warns of a file inside node_modules (npm deletes it with the package), and of nothing else', () => {
    expect(databaseWarning({ databasePath: '/srv/app/node_modules/shortlinks/data/shortlinks.db' })).toBe(
      'warning: the database /srv/app/node_modules/shortlinks/data/shortlinks.db is inside node_modules, which npm ' +
        'deletes when it reinstalls or upgrades the package; set DATABASE_PATH to a file outside it',
    );
    expect(databaseWarning({ databasePath: '/srv/links.db' })).toBeNull();
    expect(databaseWarning({ databasePath: '/srv/node_modules_backup/links.db' })).toBeNull();
    expect(databaseWarning({ databasePath: '/srv/app/node_modules/shortlinks/data/shortlinks.db', databaseUrl: 'postgres://h/d' })).toBeNull();
  });

  it('describes the database for the start-up log: the file with whether it was made, or host and database only', () => {
    expect(describeDatabase({ databasePath: '/srv/links.db', databaseUrl: undefined }, true)).toEqual({ kind: 'sqlite', path: '/srv/links.db', created: true });
    expect(describeDatabase({ databasePath: '/srv/links.db', databaseUrl: 'postgresql://links:s3cret-pw@db.internal/links' }, true)).toEqual({
      kind: 'postgresql',
      name: 'db.internal/links',
    });
    expect(describeDatabase({ databasePath: 'x', databaseUrl: 'not a url s3cret-pw' }, false)).toEqual({ kind: 'postgresql', name: 'DATABASE_URL' });
  });
});
