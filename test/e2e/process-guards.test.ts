import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** The compiled guards, as the server process installs them at start. */
const GUARDS = fileURLToPath(new URL('../../dist/src/process-guards.js', import.meta.url));

/** Runs a small program that installs the guards and then misbehaves; resolves with its exit code and output. */
function runGuarded(misbehave: string): Promise<{ code: number; output: string }> {
  const program = `
    const { guardProcess } = await import(${JSON.stringify(GUARDS)});
    guardProcess();
    ${misbehave}
    setTimeout(() => console.log('still running'), 100);
  `;
  return new Promise((resolve) => {
    execFile(process.execPath, ['--input-type=module', '-e', program], (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : Number(error.code), output: stdout + stderr });
    });
  });
}

describe('the server process and errors nobody caught', () => {
  it('logs a rejection nobody awaited and goes on', async () => {
    const run = await runGuarded("Promise.reject(new Error('stray rejection'));");
    expect(run.code).toBe(0);
    expect(run.output).toContain('Unhandled rejection (the service goes on): Error: stray rejection');
    expect(run.output).toContain('still running');
  });

  it('logs an uncaught exception and exits non-zero for a supervisor to restart it', async () => {
    const run = await runGuarded("setTimeout(() => { throw new Error('stray exception'); }, 10);");
    expect(run.code).toBe(1);
    expect(run.output).toContain('Uncaught exception (the process exits): Error: stray exception');
    expect(run.output).not.toContain('still running');
  });
});
