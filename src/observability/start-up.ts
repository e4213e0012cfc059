import type { Config } from '../config.js';
import { databaseLine, databaseWarning, type DatabaseDescription } from '../support/database-line.js';
import { hostAndPort, serveLine } from '../support/serve-line.js';
import type { Logger } from './logger.js';

/**
 * The start-up lines, written once the service listens (by the one process, or the primary when all its workers
 * do): where it is reached and listens, its database, which destination checks are on, and where its metrics are;
 * then the line naming the database, as the CLI names it, and a warning when it lies where npm deletes it. Nothing
 * secret: the database as store/open.ts describes it (a PostgreSQL database by host and name), the Safe Browsing
 * check as on or off, never the key.
 */
export function logStartUp(
  logger: Logger,
  config: Config,
  started: { address: { address: string; port: number }; database: DatabaseDescription; metrics: string | null },
): void {
  const { address, database, metrics } = started;
  logger.info(
    {
      publicUrl: config.publicUrl,
      address: hostAndPort(address),
      workers: config.workers,
      database,
      checks: {
        privateAddresses: true,
        unsafeListFile: config.unsafeListFile !== undefined,
        safeBrowsing: config.safeBrowsingApiKey !== undefined,
      },
      trustedProxies: config.trustedProxies.length,
      metrics: metrics ?? 'off',
      logLevel: config.logLevel,
    },
    serveLine(config.publicUrl, address, config.workers),
  );
  logger.info(databaseLine(database));
  const warning = databaseWarning(database);
  if (warning) logger.warn(warning);
}
