import { isObject } from '../messages.js';

/**
 * The most messages one JSON-RPC batch may hold (2025-11-25 only; 2026-07-28 has no batches). The SDK takes up to
 * 100, and each request of a batch runs a tool: one POST would otherwise start a hundred tools at once.
 */
export const MAX_BATCH_MESSAGES = 10;

/**
 * The requests of a batch: the messages that ask for an answer (a method and an id), each costing one call of
 * the person's budget. Notifications and responses (the client's answer to an elicitation) run no tool and cost
 * nothing; the batch's POST itself already cost one at the gate.
 */
export function requestsIn(batch: readonly unknown[]): number {
  return batch.filter((message) => isObject(message) && typeof message.method === 'string' && 'id' in message).length;
}
