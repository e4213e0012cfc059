import { describe, expect, it } from 'vitest';
import { databaseLine, databaseWarning } from '../../src/support/database-line.js';

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
});
