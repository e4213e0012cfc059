/**
 * Store operations written once for every adapter. An operation is a generator: it yields each query it needs
 * (`yield* ask(...)`) and the adapter answers inside one transaction. SQLite answers synchronously, so the whole
 * operation runs inside one synchronous transaction that nothing else can interleave with; PostgreSQL answers each
 * query over the network on the transaction's connection. The rules (limits, names, codes, flagging) then live in
 * one place, whatever runs the queries.
 */

/** One query of an operation: a method name of the adapter's queries and its arguments. */
export interface Ask<Q> {
  query: keyof Q & string;
  args: unknown[];
}

export type Steps<Q, T> = Generator<Ask<Q>, T, unknown>;

type Fn = (...args: never[]) => unknown;
type ArgsOf<F> = F extends (...args: infer A) => unknown ? A : never;
type ResultOf<F> = F extends (...args: never[]) => infer R ? R : never;

/** The queries of `Q` as steps: `yield* q.linkById(id)` asks the adapter and hands back its answer. */
export type Asker<Q> = { [K in keyof Q]: (...args: ArgsOf<Q[K]>) => Steps<Q, ResultOf<Q[K]>> };

export function asker<Q extends { [K in keyof Q]: Fn }>(): Asker<Q> {
  const made = new Map<string, unknown>();
  const step = (query: string) =>
    function* (...args: unknown[]): Generator<Ask<Q>, unknown, unknown> {
      return yield { query: query as keyof Q & string, args };
    };
  return new Proxy({} as Asker<Q>, {
    get(_target, query) {
      if (typeof query !== 'string') return undefined;
      if (!made.has(query)) made.set(query, step(query));
      return made.get(query);
    },
  });
}

/** How an adapter runs an operation whose queries are `Q`: in one transaction each, answered as a promise. */
export type Perform<Q> = <A extends unknown[], T>(operation: (...args: A) => Steps<Q, T>) => (...args: A) => Promise<T>;

/** Runs an operation against queries answered at once (SQLite, inside the caller's transaction). */
export function runNow<Q extends { [K in keyof Q]: Fn }, T>(steps: Steps<Q, T>, queries: Q): T {
  let next = steps.next();
  while (!next.done) next = steps.next(call(queries, next.value));
  return next.value;
}

/** Runs an operation against queries answered over a connection (PostgreSQL, inside the caller's transaction). */
export async function runAwaiting<Q extends { [K in keyof Q]: Fn }, T>(
  steps: Steps<Q, T>,
  queries: { [K in keyof Q]: (...args: ArgsOf<Q[K]>) => Promise<ResultOf<Q[K]>> },
): Promise<T> {
  let next = steps.next();
  while (!next.done) next = steps.next(await call(queries as never, next.value));
  return next.value;
}

function call<Q>(queries: Q, { query, args }: Ask<Q>): unknown {
  return (queries[query] as (...args: unknown[]) => unknown)(...args);
}
