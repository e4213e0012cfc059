import { describe, expect, it } from 'vitest';
import { CopyRefused, parentsFirst, planCopy, type PgTable } from '../../src/store/copy/plan.js';
import { converterFor } from '../../src/store/copy/values.js';

/** copy-database's plan (which tables, in which order) and its conversions, without a database. */

const table = (name: string, ...columns: string[]): PgTable => ({
  name,
  columns: columns.map((column) => ({ name: column, type: 'text', identity: false })),
});

describe('the order copy-database writes tables in', () => {
  it('puts every table after the tables it references, ties by name', () => {
    const tables = ['clicks', 'links', 'teams', 'people', 'members', 'codes'].map((name) => table(name));
    const references = [
      { table: 'clicks', references: 'links' },
      { table: 'links', references: 'teams' },
      { table: 'members', references: 'teams' },
      { table: 'members', references: 'people' },
    ];
    expect(parentsFirst(tables, references).map((t) => t.name)).toEqual(['codes', 'people', 'teams', 'links', 'members', 'clicks']);
  });

  it('ignores a table referencing itself, and refuses a cycle between tables', () => {
    expect(parentsFirst([table('a')], [{ table: 'a', references: 'a' }]).map((t) => t.name)).toEqual(['a']);
    const cycle = [{ table: 'a', references: 'b' }, { table: 'b', references: 'a' }];
    expect(() => parentsFirst([table('a'), table('b'), table('c')], cycle)).toThrow(/the foreign keys of a, b form a cycle/);
  });
});

describe('planCopy', () => {
  const sqlite = new Map([['people', ['id', 'email']], ['links', ['seq', 'id']]]);

  it('copies every table both have, leaving out PostgreSQL’s schema_migrations', () => {
    const plan = planCopy(sqlite, [table('people', 'id', 'email'), table('links', 'seq', 'id'), table('schema_migrations', 'version')], []);
    expect(plan.map((t) => t.name).sort()).toEqual(['links', 'people']);
  });

  it('refuses schemas that differ: a table on one side only, or other columns', () => {
    expect(() => planCopy(sqlite, [table('people', 'id', 'email'), table('extra', 'x')], [])).toThrow(
      'the two schemas differ (only SQLite has links; only PostgreSQL has extra); are both of this version?',
    );
    expect(() => planCopy(sqlite, [table('people', 'email', 'id'), table('links', 'seq', 'id')], [])).toThrow(CopyRefused);
  });
});

describe('converting SQLite values for PostgreSQL', () => {
  const convert = (type: string, value: unknown) => converterFor('t', { name: 'c', type, identity: false })(value);

  it('turns 0/1 into booleans, integers into exact decimal text, and keeps blobs, text and nulls', () => {
    expect([convert('boolean', 0n), convert('boolean', 1n)]).toEqual([false, true]);
    expect(convert('bigint', 9_007_199_254_740_993n)).toBe('9007199254740993');
    expect(convert('integer', 200n)).toBe('200');
    expect(convert('bytea', Buffer.from([1, 2]))).toEqual(Buffer.from([1, 2]));
    expect(convert('text', 'ünïcode')).toBe('ünïcode');
    expect(convert('boolean', null)).toBeNull();
  });

  it('refuses a value that does not fit, naming the column but not the value, and a type it does not know', () => {
    expect(() => convert('boolean', 2n)).toThrow('t.c holds the number 2 where PostgreSQL wants boolean');
    expect(() => convert('bytea', 'secret text')).toThrow('t.c holds text where PostgreSQL wants bytea');
    expect(() => convert('integer', 1.5)).toThrow('t.c holds the number 1.5 where PostgreSQL wants integer');
    expect(() => converterFor('t', { name: 'c', type: 'jsonb', identity: false })).toThrow(/type jsonb, which copy-database cannot copy yet/);
  });
});
