import { afterEach, describe, expect, it } from 'vitest';
import { migrationsOf, sharedMigrations } from '../../src/store/sql/migrations.js';
import type { Dialect, DialectText } from '../../src/store/sql/statement.js';

/** One adapter's database as the migration contract drives it; what opening it applies is the adapter's own list. */
export interface MigratingDatabase {
  /** Applies the migrations of `list` the database has not seen yet, as opening it does with the adapter's list. */
  migrate(list: readonly string[]): Promise<void>;
  /** The version the database records: how many migrations of its list are applied. */
  version(): Promise<number>;
  rows(text: string): Promise<unknown[]>;
  /** Closes it and opens it again as a starting server does (its migrations applied). */
  reopen(): Promise<void>;
  close(): Promise<void>;
}

export interface MigratingAdapter {
  dialect: Dialect['name'];
  /** The adapter's own history (frozen) and every migration it applies. */
  history: readonly string[];
  migrations: readonly string[];
  /** The version of the first shared migration on this database. */
  firstShared: number;
  /** A fresh database, opened (every migration of `migrations` applied). */
  open(): Promise<MigratingDatabase>;
}

/**
 * A test-only shared migration in two steps: a table whose column types differ by database, written side by side,
 * then a row that needs the table, so the two apply only in order. The table has no IF NOT EXISTS: applied twice,
 * the first would fail.
 */
const PROBE: ReadonlyArray<(dialect: Dialect) => string> = [
  (dialect) => `CREATE TABLE shared_probe (step integer NOT NULL, hash ${dialect.name === 'sqlite' ? 'BLOB' : 'bytea'} NOT NULL)`,
  (dialect) => `INSERT INTO shared_probe (step, hash) VALUES (2, ${dialect.name === 'sqlite' ? `X'00ff'` : `'\\x00ff'::bytea`})`,
];
const PROBE_ROW = { step: 2, hash: Buffer.from([0x00, 0xff]) };

/** The second step failing halfway: its own insert goes through first, then a statement on no table. */
const FAILING_SECOND: DialectText = (dialect) => `${PROBE[1]!(dialect)}; INSERT INTO no_such_table (n) VALUES (1)`;

/**
 * The shared migration list (src/store/sql/migrations.ts) on one adapter: numbered after its frozen history, and a
 * shared migration appended to the list (a test's own here, after the real ones) applied once, in order, each in a
 * transaction with its version, and not again when the database is opened again.
 */
export function migrationContract(name: string, adapter: MigratingAdapter): void {
  describe(`shared migrations: ${name}`, () => {
    let db: MigratingDatabase | undefined;
    afterEach(async () => {
      await db?.close();
      db = undefined;
    });
    /** The adapter's list with `appended` after the real shared migrations, rendered for its database. */
    const withAppended = (appended: readonly DialectText[]) =>
      migrationsOf(adapter.history, adapter.dialect, [...sharedMigrations, ...appended]);

    it(`keeps its own history frozen, and numbers the shared list after it, from ${adapter.firstShared}`, () => {
      expect(adapter.history).toHaveLength(adapter.firstShared - 1);
      expect(adapter.migrations.slice(0, adapter.firstShared - 1)).toEqual(adapter.history);
      expect(adapter.migrations).toHaveLength(adapter.history.length + sharedMigrations.length);
      // Version n is the n-th of the list: the next shared migration gets the version after the real ones.
      expect(withAppended(['SELECT 1']).indexOf('SELECT 1') + 1).toBe(adapter.firstShared + sharedMigrations.length);
    });

    it('applies appended shared migrations once each, in order, with their versions, and not again on reopening', async () => {
      db = await adapter.open();
      expect(await db.version()).toBe(adapter.migrations.length);
      const list = withAppended(PROBE);
      await db.migrate(list);
      expect(await db.version()).toBe(adapter.migrations.length + 2);
      expect(await db.rows('SELECT step, hash FROM shared_probe')).toEqual([PROBE_ROW]);

      await db.reopen();
      await db.migrate(list);
      expect(await db.version()).toBe(adapter.migrations.length + 2);
      expect(await db.rows('SELECT step, hash FROM shared_probe')).toEqual([PROBE_ROW]);
    });

    it('counts a migration only the other database needs, empty on this one, so both number the next alike', async () => {
      db = await adapter.open();
      const otherOnly: DialectText = (dialect) => (dialect.name === adapter.dialect ? '' : 'SELECT 1');
      await db.migrate(withAppended([otherOnly, ...PROBE]));
      expect(await db.version()).toBe(adapter.migrations.length + 3);
      expect(await db.rows('SELECT step, hash FROM shared_probe')).toEqual([PROBE_ROW]);
    });

    it('applies each in a transaction of its own: one that fails leaves nothing of itself and no version', async () => {
      db = await adapter.open();
      await expect(db.migrate(withAppended([PROBE[0]!, FAILING_SECOND]))).rejects.toThrow(/no_such_table/);
      expect(await db.version()).toBe(adapter.migrations.length + 1);
      expect(await db.rows('SELECT step FROM shared_probe')).toEqual([]);

      await db.migrate(withAppended(PROBE));
      expect(await db.version()).toBe(adapter.migrations.length + 2);
      expect(await db.rows('SELECT step, hash FROM shared_probe')).toEqual([PROBE_ROW]);
    });
  });
}
