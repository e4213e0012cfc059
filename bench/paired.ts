/**
 * Paired rounds: ours and a bare node:http server loaded in turn, a few seconds each, several times, each server's
 * CPU per answer taken round by round. On this shared machine one unchanged server's CPU per request moved by a
 * third between two runs minutes apart; a slow stretch now lands on both servers of a round, and the median of the
 * rounds' ratios says what one long run of each cannot.
 */
export const PAIRED_SECONDS = 3;
const ROUNDS = Number(process.env.BENCH_PAIRED_ROUNDS ?? 5);
/**
 * The rate the redirect section's paced rounds send at (0: none): one that ours and bare both hold on two cores with
 * autocannon beside them, so both are handed the same requests per wake-up of the event loop.
 */
export const PAIRED_RATE = Number(process.env.BENCH_PAIRED_RATE ?? 8_000);

export interface Paired {
  rounds: number;
  /** The medians, and the spread of the ratios, for the summary. */
  text: string;
  /** Each kind's median ratio (the second server's CPU per answer over the first's). */
  ratios: Record<string, number>;
}

/** One load of `server` (PAIRED_SECONDS after a second's warm-up) for a kind of request; its CPU µs per answer (round -1: a warm-up). */
export type LoadOnce<S> = (server: S, kind: string, round: number) => Promise<number>;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const pct = (n: number) => `${Math.round(100 * n)}%`;

/**
 * Rounds of each kind of request on both servers; null with BENCH_PAIRED_ROUNDS=0. `names` name the two in the lines
 * (the analytics section pairs our server with analytics off and on).
 */
export async function pairedRounds<S>(
  ours: S,
  bare: S,
  kinds: string[],
  loadOnce: LoadOnce<S>,
  names: readonly [string, string] = ['ours', 'bare'],
  seconds = PAIRED_SECONDS,
): Promise<Paired | null> {
  const [oursName, bareName] = names;
  if (ROUNDS < 1) return null;
  const parts: string[] = [];
  const medianRatios: Record<string, number> = {};
  for (const kind of kinds) {
    const ourCpu: number[] = [];
    const bareCpu: number[] = [];
    // A round of each first, not counted: a server's first seconds are its compiler's.
    await loadOnce(ours, kind, -1);
    await loadOnce(bare, kind, -1);
    for (let round = 0; round < ROUNDS; round++) {
      ourCpu.push(await loadOnce(ours, kind, round));
      bareCpu.push(await loadOnce(bare, kind, round));
    }
    const ratios = ourCpu.map((cpu, round) => bareCpu[round]! / cpu);
    medianRatios[kind] = median(ratios);
    const list = (values: number[], format: (n: number) => string) => values.map(format).join(' ');
    console.log(
      `  paired, ${kind.padEnd(10)} ${oursName} ${list(ourCpu, (n) => n.toFixed(0))} µs | ${bareName} ${list(bareCpu, (n) => n.toFixed(0))} µs | ` +
        `${bareName}/${oursName} ${list(ratios, pct)}`,
    );
    parts.push(
      `${kind}: ${oursName} ${median(ourCpu).toFixed(0)} µs, ${bareName} ${median(bareCpu).toFixed(0)} µs, ${bareName}/${oursName} median ${pct(median(ratios))} ` +
        `(${pct(Math.min(...ratios))}–${pct(Math.max(...ratios))})`,
    );
  }
  return { rounds: ROUNDS, text: `${ROUNDS} rounds × ${seconds} s each, in turn: ${parts.join(' | ')}`, ratios: medianRatios };
}
