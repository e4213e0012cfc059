/**
 * Podman from the container test: each call a process, its standard output trimmed, a failure thrown with the end
 * of what podman said. Settings such as CONTAINERS_CONF come from the environment (.ci/run sets them for CI).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);
// A build prints a few hundred lines; a failing one is worth reading whole, but only its end goes in the message.
const OUTPUT_LIMIT = 64 * 1024 * 1024;

export async function podman(...args: string[]): Promise<string> {
  return command('podman', args);
}

/** Runs a program; resolves to its trimmed standard output, or rejects with the tail of its output. */
export async function command(file: string, args: string[]): Promise<string> {
  try {
    const { stdout } = await run(file, args, { maxBuffer: OUTPUT_LIMIT });
    return stdout.trim();
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    const tail = `${stdout}\n${stderr}`.trim().split('\n').slice(-40).join('\n');
    throw new Error(`${file} ${args.join(' ')} failed:\n${tail}`);
  }
}

/** True when podman exits 0: `image exists`, `healthcheck run`. */
export async function succeeds(...args: string[]): Promise<boolean> {
  return podman(...args).then(
    () => true,
    () => false,
  );
}
