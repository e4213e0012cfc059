/** A JSON object: not null, not an array. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The JSON-RPC messages of a body: each of a batch's, or the one. */
export function messagesOf(body: unknown): unknown[] {
  return Array.isArray(body) ? body : [body];
}

/**
 * True when a message's id is a number JavaScript cannot hold exactly (beyond ±(2^53 − 1)): parsed, it is already
 * another number, so the answer's id would not be the request's, as JSON-RPC requires. Such a request is refused
 * (-32600) rather than answered under a changed id.
 */
export function hasInexactId(body: unknown): boolean {
  return messagesOf(body).some((message) => isObject(message) && typeof message.id === 'number' && !Number.isSafeInteger(message.id));
}
