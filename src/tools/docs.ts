import { tools } from './index.js';
import { inputJsonSchema } from './json-schema.js';
import { describeTool, scopeOf } from './define-tool.js';
import { DEFAULT_LIMITS } from '../domain/limits.js';

/** docs/tools.md, generated from the registry (`npm run docs`); a test keeps the file in step with the code. */
export function toolsMarkdown(): string {
  const rows = tools.map((tool) => {
    const params = Object.keys((inputJsonSchema(tool).properties ?? {}) as object).join(', ');
    const http = tool.operation ? `\`POST /v1/${tool.operation}\`` : 'assistants only';
    const hints = Object.entries(tool.annotations)
      .filter(([, on]) => on)
      .map(([hint]) => hint.replace('Hint', ''))
      .join(', ');
    return `| \`${tool.name}\` | ${http} | \`${scopeOf(tool)}\` | ${params} | ${hints || '-'} |`;
  });
  // Written before any service runs: the address as its placeholder, the limits as their defaults.
  const facts = { publicUrl: 'PUBLIC_URL', limits: DEFAULT_LIMITS };
  const details = tools.map((tool) => `### ${tool.name}: ${tool.title}\n\n${describeTool(tool, facts)}\n`);
  return [
    '# Tools',
    '',
    'Generated from `src/tools/index.ts` by `npm run docs`; do not edit by hand.',
    '',
    'Descriptions here show the default limits. An assistant reads them in `tools/list`, where `PUBLIC_URL` is the',
    "service's address and the limits are those in force (`shortlinks limits set` changes them).",
    '',
    '| Tool | HTTP | Scope | Params | Hints |',
    '|---|---|---|---|---|',
    ...rows,
    '',
    ...details,
  ].join('\n');
}
