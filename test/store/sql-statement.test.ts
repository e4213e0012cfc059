import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { positional, positionalValues, sql } from '../../src/store/sql/statement.js';

describe('shared SQL: named parameters rendered for pg', () => {
  it('numbers the names in order of first use and lists their values in that order', () => {
    const rendered = positional('UPDATE links SET note = :note, changed_at = :at WHERE id = :id');
    expect(rendered).toEqual({ text: 'UPDATE links SET note = $1, changed_at = $2 WHERE id = $3', names: ['note', 'at', 'id'] });
    expect(positionalValues(rendered, { id: 'l1', at: 't', note: null })).toEqual([null, 't', 'l1']);
  });

  it('renders a name used twice as one parameter', () => {
    const rendered = positional('SELECT :teamId, :role WHERE EXISTS (SELECT 1 FROM teams WHERE id = :teamId)');
    expect(rendered.text).toBe('SELECT $1, $2 WHERE EXISTS (SELECT 1 FROM teams WHERE id = $1)');
    expect(rendered.names).toEqual(['teamId', 'role']);
  });

  it('leaves names inside literals, quoted identifiers and comments, and ::casts, alone', () => {
    const text = `SELECT ':code', 'it''s :x', "a:b", :link::text -- :c\n, x /* :d */ FROM t WHERE c = :code`;
    expect(positional(text)).toEqual({
      text: `SELECT ':code', 'it''s :x', "a:b", $1::text -- :c\n, x /* :d */ FROM t WHERE c = $2`,
      names: ['link', 'code'],
    });
  });

  it('refuses a name with no value rather than binding NULL', () => {
    const rendered = positional('SELECT 1 FROM links WHERE code = :code');
    expect(() => positionalValues(rendered, {})).toThrow('Missing named parameter "code"');
    expect(() => positionalValues(rendered, { name: 'x' })).toThrow('Missing named parameter "code"');
  });

  it('writes the dialects side by side and renders both once, when declared', () => {
    const locked = sql<{ id: string }>((d) => `SELECT id FROM links WHERE id = :id${d.forUpdate}`);
    expect(locked.sqlite).toBe('SELECT id FROM links WHERE id = :id');
    expect(locked.postgres).toEqual({ text: 'SELECT id FROM links WHERE id = $1 FOR UPDATE', names: ['id'] });
  });

  it('hands better-sqlite3 the named text, which it binds itself', () => {
    const db = new Database(':memory:');
    const statement = sql<{ a: string; b: string }>(`SELECT :a || ':a' || :b || :a AS joined`);
    expect(db.prepare(statement.sqlite).get({ a: 'x', b: 'y' })).toEqual({ joined: 'x:ayx' });
    db.close();
  });
});
