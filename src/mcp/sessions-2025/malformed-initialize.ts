import { isInitializeRequest } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { isObject, messagesOf } from '../messages.js';

/** What an initialize must carry (2025-11-25), to name what a malformed one lacks. */
const initializeParams = z.looseObject({
  protocolVersion: z.string(),
  capabilities: z.looseObject({}),
  clientInfo: z.looseObject({ name: z.string(), version: z.string() }),
});

/**
 * Why a message (or a message of a batch) that names initialize is not an initialize request, or null when none is
 * malformed. The SDK answers such a message as an internal error (-32603) inside a session and is told "send
 * initialize first" outside one: both say the fault is elsewhere. It is the client's, invalid params (-32602).
 */
export function malformedInitialize(body: unknown): string | null {
  for (const message of messagesOf(body)) {
    if (!isObject(message) || message.method !== 'initialize' || isInitializeRequest(message)) continue;
    const checked = initializeParams.safeParse(message.params ?? {});
    const why = checked.success ? 'not an initialize request' : checked.error.issues.map(describe).join('; ');
    return `Invalid params for initialize: ${why}`;
  }
  return null;
}

function describe(issue: z.core.$ZodIssue): string {
  return issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message;
}
