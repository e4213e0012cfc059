import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/paths.js';
import { toolsMarkdown } from '../../src/tools/docs.js';

describe('docs/tools.md', () => {
  it('is generated from the registry (run `npm run docs` after changing a tool)', () => {
    expect(readFileSync(join(packageRoot, 'docs', 'tools.md'), 'utf8')).toBe(toolsMarkdown());
  });
});
