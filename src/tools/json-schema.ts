import { z } from 'zod';
import type { Tool } from './define-tool.js';

type JsonSchema = Record<string, unknown>;

/** A zod schema as JSON Schema 2020-12 (the MCP default and OpenAPI 3.1's dialect), without `$schema`. */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any' });
  return rest;
}

const inputs = new Map<Tool, JsonSchema>();
const outputs = new Map<Tool, JsonSchema>();

/** The tool's params as JSON Schema (cached: schemas are built once per process). */
export function inputJsonSchema(tool: Tool): JsonSchema {
  let schema = inputs.get(tool);
  if (!schema) inputs.set(tool, (schema = jsonSchemaOf(tool.input, 'input')));
  return schema;
}

/** The tool's HTTP response body as JSON Schema. */
export function outputJsonSchema(tool: Tool): JsonSchema {
  let schema = outputs.get(tool);
  if (!schema) outputs.set(tool, (schema = jsonSchemaOf(tool.output, 'output')));
  return schema;
}
