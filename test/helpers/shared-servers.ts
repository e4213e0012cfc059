import { databaseEnv } from './database-env.js';
import { startServer, type TestServer } from './server.js';

/**
 * Two servers on one database (the first's file, or its PostgreSQL database in the postgres project) and one clock,
 * counting their rate limits in it (`sharedRateLimits`), as two processes of one service would; both trust loopback
 * as their proxy, so X-Forwarded-For is the client address. `stop` stops the second first: the first removes the file.
 */
export async function startSharedPair(): Promise<{ a: TestServer; b: TestServer; stop(): Promise<void> }> {
  const env = { TRUST_PROXY: '127.0.0.1' };
  const a = await startServer({ sharedRateLimits: true, env });
  const b = await startServer({ sharedRateLimits: true, clock: a.clock, env: { ...env, ...databaseEnv(a.dbPath) } });
  return {
    a,
    b,
    async stop() {
      await b.stop();
      await a.stop();
    },
  };
}
