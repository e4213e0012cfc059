import { tools } from './index.js';
import { inputJsonSchema } from './json-schema.js';
import { scopeOf } from './define-tool.js';

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
  const details = tools.map((tool) => `### ${tool.name}: ${tool.title}\n\n${tool.description}\n`);
  return [
    '# Tools',
    '',
    'Generated from `src/tools/index.ts` by `npm run docs`; do not edit by hand.',
    '',
    '| Tool | HTTP | Scope | Params | Hints |',
    '|---|---|---|---|---|',
    ...rows,
    '',
    ...details,
  ].join('\n');
}
