import { existsSync } from 'node:fs';
import { createApp } from './app.js';
import { databaseLine } from './support/database-line.js';
import { loadConfig } from './config.js';
import { guardProcess } from './process-guards.js';

/** `npm start` and `shortlinks serve`: serve everything on one port until SIGINT or SIGTERM. */
export async function serve(): Promise<void> {
  guardProcess();
  const config = loadConfig();
  const created = !existsSync(config.databasePath);
  const app = await createApp(config);
  const address = await app.listen();
  console.log(`shortlinks serves ${config.publicUrl} (listening on ${address.address}:${address.port})`);
  console.log(databaseLine(config.databasePath, created));
  const stop = async (signal: string) => {
    console.log(`${signal}: closing`);
    await app.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}
