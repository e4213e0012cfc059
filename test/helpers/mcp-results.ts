/**
 * What a tools/call through the SDK's Client answered, read as a test expects it: a success or a failure of the
 * shapes every MCP test holds the server to (test/e2e/mcp.test.ts over HTTP, test/mcp/tool-calls.test.ts in process).
 */
import { expect } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

export type ToolResult = Awaited<ReturnType<Client['callTool']>>;

const PROBLEM_KEYS = ['code', 'detail', 'field', 'status', 'title', 'type'];

function textsOf(result: ToolResult): string[] {
  const content = result.content as Array<{ type: string; text?: string }>;
  expect(content.every((block) => block.type === 'text')).toBe(true);
  return content.map((block) => block.text!);
}

function textOf(result: ToolResult): string {
  const texts = textsOf(result);
  expect(texts).toHaveLength(1);
  return texts[0]!;
}

/** A successful result: structuredContent, a first text block holding the same JSON, and, when the result returns
 * links, a second one naming their addresses (test/e2e/mcp-addresses.test.ts checks it). */
export function ok(result: ToolResult): any {
  expect(result.isError ?? false, `unexpected error result: ${JSON.stringify(result.content)}`).toBe(false);
  expect(result.structuredContent).toBeTypeOf('object');
  expect(result.structuredContent).not.toBeNull();
  const texts = textsOf(result);
  expect(texts.length).toBeLessThanOrEqual(2);
  expect(JSON.parse(texts[0]!)).toEqual(result.structuredContent);
  return result.structuredContent;
}

/** A failed result: isError with the HTTP API's problem body as JSON text, its type under the service's address. */
export function problemOf(result: ToolResult, publicUrl: string): any {
  expect(result.isError, `expected an error result, got ${JSON.stringify(result)}`).toBe(true);
  const problem = JSON.parse(textOf(result));
  expect(Object.keys(problem).sort()).toEqual(PROBLEM_KEYS);
  expect(problem.type).toBe(`${publicUrl}/docs/errors#${problem.code}`);
  expect(problem.title).toBeTypeOf('string');
  expect(problem.detail).toBeTypeOf('string');
  return problem;
}

export async function tool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolResult> {
  return client.callTool({ name, arguments: args });
}
