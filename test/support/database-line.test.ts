import { describe, expect, it } from 'vitest';
import { databaseLine } from '../../src/support/database-line.js';

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
});
