import type { Server, ServerContext } from '@modelcontextprotocol/server';
import { RelayedTransport } from './relayed-transport.js';

/**
 * The 2025-11-25 calls whose question this server put, by the call's abort signal, which the SDK keeps for every
 * round of the call: only there does an answer count.
 */
const askedInCall = new WeakSet<AbortSignal>();

/**
 * Opens the question a 2025-11-25 session's server is about to put within the call (RelayedTransport.openFor), and
 * remembers that the call asked it.
 */
export async function openCallQuestion(server: Server, ctx: ServerContext): Promise<void> {
  const transport = server.transport;
  if (transport instanceof RelayedTransport) await transport.openFor(ctx.mcpReq.id);
  askedInCall.add(ctx.mcpReq.signal);
}

/** True when this server put its question within the call (openCallQuestion); see confirm.ts for why it matters. */
export function askedInThisCall(ctx: ServerContext): boolean {
  return askedInCall.has(ctx.mcpReq.signal);
}
