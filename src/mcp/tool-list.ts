import type { Tool as McpTool } from '@modelcontextprotocol/server';
import { describeTool, type DescriptionFacts, type Tool } from '../tools/define-tool.js';
import { tools } from '../tools/index.js';
import { inputJsonSchema, outputJsonSchema } from '../tools/json-schema.js';
import { viewOfTool } from './apps/extension.js';

/** MCP structured content must be an object: a tool whose answer is not (deleteLink's null) is wrapped. */
export function answersObject(tool: Tool): boolean {
  return outputJsonSchema(tool).type === 'object';
}

/** Destructive tools take `confirm` on assistant surfaces, for clients that cannot ask the person themselves. */
const confirmParam = {
  type: 'boolean',
  description:
    'Set to true only after the person said yes to this deletion in the conversation. Clients that support ' +
    'elicitation are asked directly instead.',
};

/** A person's "no" under 2026-07-28 is an ordinary answer: nothing happened, and it says so. */
const declinedParam = { type: 'boolean', const: true, description: 'Present when the person said no: nothing was done.' };

/** The object a tool whose answer is not an object answers through MCP: `{result}`, and `declined` when it asks first. */
function wrapped(tool: Tool, output: object): object {
  const properties = tool.confirmation ? { result: output, declined: declinedParam } : { result: output };
  return { type: 'object', properties, required: ['result'], additionalProperties: false };
}

function describe(tool: Tool, facts: DescriptionFacts): McpTool {
  const input = inputJsonSchema(tool) as McpTool['inputSchema'];
  const output = outputJsonSchema(tool);
  return {
    name: tool.name,
    title: tool.title,
    description: describeTool(tool, facts),
    inputSchema: tool.confirmation
      ? { ...input, properties: { ...input.properties, confirm: confirmParam } }
      : input,
    outputSchema: (answersObject(tool) ? output : wrapped(tool, output)) as McpTool['outputSchema'],
    annotations: { title: tool.title, ...tool.annotations },
  };
}

let listed: { facts: DescriptionFacts; tools: McpTool[]; withViews: McpTool[] } | null = null;

/**
 * The `tools/list` answer. Descriptions name the address and the limits in force, which `limits set` changes
 * while the server runs, so the list is described again when they change. The settings store hands out the same
 * frozen limits until they change, so comparing by identity is exact and costs nothing. A client that shows MCP
 * Apps (`withViews`) gets the same tools with the view of each named in `_meta.ui.resourceUri`; any other client
 * gets the list exactly as before views existed.
 */
export function mcpToolList(facts: DescriptionFacts, withViews = false): McpTool[] {
  const same = listed !== null && listed.facts.limits === facts.limits && listed.facts.publicUrl === facts.publicUrl;
  if (!same) {
    const described = tools.map((tool) => describe(tool, facts));
    listed = { facts, tools: described, withViews: described.map(withView) };
  }
  return withViews ? listed!.withViews : listed!.tools;
}

function withView(tool: McpTool): McpTool {
  const resourceUri = viewOfTool(tool.name);
  return resourceUri === undefined ? tool : { ...tool, _meta: { ui: { resourceUri } } };
}
