import pg from 'pg';
import { apiError } from '../../errors.js';

/**
 * PostgreSQL text cannot hold U+0000: a parameter with one fails the statement, which would surface as a 500 for
 * whatever a caller typed (an email, a client id, a team id in a path). SQLite stores it, so the two adapters would
 * answer differently too. Nothing stored can contain it, so a read with one finds nothing, as it does on SQLite; a
 * write with one is refused as the caller's mistake (400 `bad_request`), before it reaches the server.
 */
export class NulGuardedClient extends pg.Client {
  override query(...args: unknown[]): never {
    const [config, values] = args as [unknown, unknown];
    const text = typeof config === 'string' ? config : (config as { text?: unknown } | null)?.text;
    const params = Array.isArray(values) ? values : ((config as { values?: unknown } | null)?.values as unknown[] | undefined);
    if (typeof text === 'string' && params?.some(holdsNul)) {
      const callback = args.find((arg): arg is (error: Error | null, result?: unknown) => void => typeof arg === 'function');
      const settle = (error: Error | null, result?: pg.QueryResult) => {
        if (callback) return void callback(error, result);
        return error ? Promise.reject(error) : Promise.resolve(result);
      };
      // Every read of the store is one SELECT (a locking one included); anything else may write.
      if (/^\s*SELECT\b/i.test(text)) {
        return settle(null, { rows: [], rowCount: 0, command: 'SELECT', oid: 0, fields: [] }) as never;
      }
      return settle(apiError.badRequest('Text may not contain the NUL character (U+0000).')) as never;
    }
    return (super.query as (...a: unknown[]) => never)(...args);
  }
}

function holdsNul(value: unknown): boolean {
  return typeof value === 'string' && value.includes('\0');
}
