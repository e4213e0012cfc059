/** The outbox's rows per state, as both adapters read them, with every state present. */
export function outboxCounts(read: { state: string; n: number }[]): { pending: number; sent: number; failed: number } {
  const counts = { pending: 0, sent: 0, failed: 0 };
  for (const { state, n } of read) if (state in counts) counts[state as keyof typeof counts] = Number(n);
  return counts;
}
