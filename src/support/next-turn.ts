/**
 * Resolves in the next turn of the event loop, after the I/O that came meanwhile: a long piece of work split by it
 * lets the requests waiting be answered between its parts.
 */
export const nextTurn = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));
