import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The parts of `src/`, lowest first. A part may import only parts below it: never one above (that is a cycle in
 * waiting) and never another of its own rank (a sideways import, which is where a shared thing wants a home of
 * its own). Imports within one folder are free. A new folder or top-level file must be given a rank here.
 */
const RANKS: ReadonlyArray<readonly string[]> = [
  // Values every part shares (the clock, the caller, the lengths of a link's fields): the error table's sentences
  // write those lengths, so shared sits below errors.ts.
  ['shared'],
  ['paths.ts', 'errors.ts'],
  ['support', 'config.ts'],
  ['observability'], // the log, the request log and the metrics: every layer above may tell them what it sees
  ['domain'],
  ['store'],
  ['destinations'],
  ['analytics'], // click analytics: what a visit's address, User-Agent and Referer say, and the removal of old days
  ['domains'], // teams' own domains: adding them, proving them through DNS, and every process's directory of them
  ['tools'],
  // Links in and out in bulk: imports check each row as createLink does (tools), exports write links as tools show them.
  ['imports', 'exports'],
  ['http'],
  ['auth'], // the resource server: who is calling (tokens, access tokens, web sessions), and the budget
  ['views'],
  ['oauth'], // the authorization server: issues what auth checks
  ['mail'], // email: the messages, the outbox's sender (the operator's use cases and the web app queue mail)
  ['webhooks'], // teams' webhook endpoints: managing them, and the outbox's sender, signing each delivery
  // The operator's use cases: below the surfaces, so that the CLI and the web app's operator pages run the very
  // same functions, each only an adapter over them.
  ['operator'],
  // The surfaces, each on its own; the CLI is the operator's. Only its entry point (cli/main.ts, which can start
  // the server) sits at the top.
  ['cli', 'http-facade', 'mcp', 'web', 'redirect'],
  ['routing.ts'], // routes each request to its surface
  ['app.ts', 'process-guards.ts'], // app.ts: the composition root
  ['workers'], // WORKERS=N: the primary and what each worker adds to the app
  ['serve.ts'],
  ['main.ts', 'cli/main.ts'],
];

const SRC = normalize(join(dirname(fileURLToPath(import.meta.url)), '../../src'));
const rankOf = new Map(RANKS.flatMap((parts, rank) => parts.map((part) => [part, rank] as const)));

/** The part a file of `src/` belongs to: the file itself when ranked on its own, else its top folder (or itself at the top). */
function partOf(file: string): string {
  const path = relative(SRC, file);
  return rankOf.has(path) ? path : path.split('/')[0]!;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Every relative import of a file, static (`from '…'`) and dynamic (`import('…')`), as paths of `src/`. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:from |import\()'(\.[^']+)'/g)].map((match) => match[1]!);
  return specifiers.map((specifier) => normalize(join(dirname(file), specifier.replace(/\.js$/, '.ts'))));
}

/** True when a file of part `from` may import one of part `to`. */
function mayImport(from: string, to: string): boolean {
  return to === from || rankOf.get(to)! < rankOf.get(from)!;
}

describe('the layers of src/', () => {
  const files = sourceFiles(SRC);

  it('gives every part a rank', () => {
    const parts = new Set(files.map(partOf));
    expect([...parts].filter((part) => !rankOf.has(part))).toEqual([]);
  });

  it('imports only downwards: no part imports one above it or beside it', () => {
    const wrong: string[] = [];
    for (const file of files) {
      const from = partOf(file);
      for (const target of importsOf(file)) {
        const to = partOf(target);
        if (!mayImport(from, to)) wrong.push(`${relative(SRC, file)} imports ${relative(SRC, target)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('refuses the imports it exists to catch', () => {
    expect(mayImport('auth', 'oauth')).toBe(false); // upwards: the resource server reaching into the issuer
    expect(mayImport('mcp', 'http-facade')).toBe(false); // sideways: one surface borrowing another's helpers
    expect(mayImport('redirect', 'web')).toBe(false);
    expect(mayImport('web', 'oauth')).toBe(true);
    expect(mayImport('oauth', 'oauth')).toBe(true);
    expect(importsOf(join(SRC, 'app.ts')).map(partOf)).toContain('web');
    expect(mayImport('cli', 'web')).toBe(false); // a command needs no page
    expect(mayImport('web', 'cli')).toBe(false); // the operator pages run the operator layer, not the CLI's commands
    expect(mayImport('web', 'operator')).toBe(true);
    expect(mayImport('cli', 'operator')).toBe(true);
    expect(mayImport('operator', 'cli')).toBe(false); // a use case knows no command line
    expect(mayImport('cli/main.ts', 'serve.ts')).toBe(true);
  });
});
