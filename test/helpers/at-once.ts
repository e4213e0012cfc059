import { execFile } from 'node:child_process';

/** The compiled SQLite store (built by `npm test`'s pretest; run `npm run build` first when running a file alone). */
const STORE = new URL('../../dist/src/store/sqlite/index.js', import.meta.url).href;

export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `body` in `count` separate Node processes that all start it at the same moment (each waits for one wall
 * clock time, far enough ahead for all of them to have loaded), as processes sharing a database do when they
 * start or ask together. `body` is an ES module's code with `openSqliteStore` in scope; what it prints is returned.
 */
export function inProcessesAtOnce(count: number, body: string): Promise<Ran[]> {
  const at = Date.now() + 1500;
  const script = `
    const { openSqliteStore } = await import(${JSON.stringify(STORE)});
    while (Date.now() < ${at});
    ${body}`;
  return Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<Ran>((resolve) => {
          execFile(process.execPath, ['--input-type=module', '-e', script], (error, stdout, stderr) =>
            resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr }),
          );
        }),
    ),
  );
}
