/**
 * Each tool's public contract, one reviewed file per tool in __snapshots__/<toolName>.json: its name, title,
 * description, input and output JSON Schemas and annotations, exactly as tools/list shows them. A change to any of
 * them is an API change and shows up in review as a change to that tool's file (`npx vitest run test/tools -u`
 * rewrites the files after an intended change). test/mcp/tool-calls.test.ts checks that the served tools/list is
 * exactly these files, in registry order.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/domain/limits.js';
import { mcpToolList } from '../../src/mcp/tool-list.js';

// As docs/tools.md: the address as its placeholder and the default limits, as a fresh service describes them.
const listed = mcpToolList({ publicUrl: 'PUBLIC_URL', limits: DEFAULT_LIMITS });

describe('tool contracts', () => {
  it.each(listed.map((tool) => [tool.name, tool] as const))('%s keeps its public contract (review a change to its file)', async (name, tool) => {
    await expect(JSON.stringify(tool, null, 2)).toMatchFileSnapshot(`./__snapshots__/${name}.json`);
  });
});
