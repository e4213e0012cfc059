/**
 * The CLI host (test/helpers/cli.ts starts it): one long-lived process that runs the built CLI's command lines one
 * at a time, each with the environment, current folder and argv it would have had as a process of its own, and
 * sends back what it wrote on stdout and stderr and its exit code. Starting node and importing the CLI for every
 * call cost the end-to-end tests more than the commands did. Plain JavaScript: node runs it as it is, outside vitest.
 *
 * Each call is as independent as a process: the environment is replaced (loadConfig reads it on each command), the
 * store is opened and closed by the command itself, and the CLI keeps nothing else between command lines.
 */
import { pathToFileURL } from 'node:url';

/** The built CLI's run.js, and its executable (main.js), whose path a process of its own has as argv[1]. */
const [runModule, executable] = process.argv.slice(2);
const { runCommandLine } = await import(pathToFileURL(runModule).href);

/** `serve` keeps its process: test/helpers/cli.ts never sends it here, and this says so if it ever were. */
const serve = () => Promise.reject(new Error('the CLI host runs no server: serve runs as a process of its own'));

/** While a call runs, what it writes on `stream`, in place of the stream: as the process's pipe would have it. */
function capture(stream) {
  const chunks = [];
  const write = stream.write;
  stream.write = (chunk, encoding, callback) => {
    const done = typeof encoding === 'function' ? encoding : callback;
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? encoding : 'utf8') : Buffer.from(chunk));
    if (done) process.nextTick(done);
    return true;
  };
  return () => {
    stream.write = write;
    return Buffer.concat(chunks).toString('utf8');
  };
}

process.on('message', async ({ argv, env, cwd }) => {
  for (const name of Object.keys(process.env)) delete process.env[name];
  Object.assign(process.env, env);
  process.chdir(cwd);
  process.argv = [process.execPath, executable, ...argv];
  const stdout = capture(process.stdout);
  const stderr = capture(process.stderr);
  let code;
  try {
    code = await runCommandLine(argv, serve);
  } finally {
    process.send({ code, stdout: stdout(), stderr: stderr() });
  }
});

// The test worker that started it has gone: so does the host.
process.on('disconnect', () => process.exit(0));
