#!/usr/bin/env node
/**
 * The operator CLI (`npx shortlinks <command>`): runs the process's command line (run.ts) and exits with its code.
 * At the top of the layers, as `serve` starts the server.
 */
import { runCommandLine } from './run.js';

// serve.ts, not main.ts: main.ts starts the server as soon as it is imported (it is `npm start`'s entry).
const serve = async (): Promise<void> => (await import('../serve.js')).serve();

void runCommandLine(process.argv.slice(2), serve).then((code) => {
  if (code !== null) process.exitCode = code;
});
