import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** The compiled guards, as the server process installs them at start. */
const GUARDS = fileURLToPath(new URL('../../dist/src/process-guards.js', import.meta.url));

/** Runs a small program that installs the guards and then misbehaves; resolves with its exit code and output. */
function runGuarded(misbehave: string): Promise<{ code: number; output: string; stderr: string }> {
  const program = `
    const { guardProcess } = await import(${JSON.stringify(GUARDS)});
    guardProcess();
    ${misbehave}
    setTimeout(() => console.log('still running'), 100);
  `;
  return new Promise((resolve) => {
    execFile(process.execPath, ['--input-type=module', '-e', program], (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : Number(error.code), output: stdout + stderr, stderr });
    });
  });
}

/**
 * The one log line the guards wrote: JSON, at level error, with the error's type, message and stack. Outside the
 * server (which sends its log to standard output) the process's log is standard error.
 */
function loggedError(stderr: string) {
  const lines = stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]!) as { level: string; msg: string; err: { type: string; message: string; stack: string } };
}

describe('the server process and errors nobody caught', () => {
  it('logs a rejection nobody awaited, with its stack, and goes on', async () => {
    const run = await runGuarded("Promise.reject(new Error('stray rejection'));");
    expect(run.code).toBe(0);
    const line = loggedError(run.stderr);
    expect(line).toMatchObject({ level: 'error', msg: 'Unhandled rejection (the service goes on)', err: { type: 'Error', message: 'stray rejection' } });
    expect(line.err.stack).toMatch(/^Error: stray rejection\n\s+at /);
    expect(run.output).toContain('still running');
  });

  it('logs an uncaught exception, with its stack, and exits non-zero for a supervisor to restart it', async () => {
    const run = await runGuarded("setTimeout(() => { throw new Error('stray exception'); }, 10);");
    expect(run.code).toBe(1);
    const line = loggedError(run.stderr);
    expect(line).toMatchObject({ level: 'error', msg: 'Uncaught exception (the process exits)', err: { type: 'Error', message: 'stray exception' } });
    expect(line.err.stack).toMatch(/^Error: stray exception\n\s+at /);
    expect(run.output).not.toContain('still running');
  });
});
