import { createApp } from './app.js';
import { loadConfig } from './config.js';

/** `npm start` and `shortlinks serve`: serve everything on one port until SIGINT or SIGTERM. */
export async function serve(): Promise<void> {
  const config = loadConfig();
  const app = createApp(config);
  const address = await app.listen();
  console.log(`shortlinks listening on ${address.address}:${address.port}, public address ${config.publicUrl}`);
  const stop = async (signal: string) => {
    console.log(`${signal}: closing`);
    await app.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}
