import type { IncomingMessage, ServerResponse } from 'node:http';
import { apiError, isStorageFailure } from '../errors.js';
import { warnLine } from '../observability/logger.js';
import { reasonOf } from '../observability/write-failures.js';
import { sendJson, sendProblem } from './problem.js';

/** How long /healthz waits for the database before answering 503; probes commonly give up after 1 to 5 s. */
export const HEALTH_TIMEOUT_MS = 2000;

export interface Health {
  /** Answers `GET`/`HEAD /healthz` (and its older name `/health`). */
  answer(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** From now on every answer is 503: the process is closing and should get no new work. */
  closing(): void;
}

export interface HealthOptions {
  /** The store's own check (Store.ready): resolves while the database answers with every migration applied. */
  ready: () => Promise<void>;
  publicUrl: string;
  timeoutMs?: number;
  log?: (line: string) => void;
}

const OK = JSON.stringify({ status: 'ok' });
const CANNOT_STORE = 'The service cannot store anything: its database reports its disk full or failing. Reads and redirects still answer.';

/** The reason for the log (the driver's code and words), and whether it is the database unable to store writes. */
interface Unready {
  reason: string;
  storage: boolean;
}

/**
 * `/healthz`, for load balancers, container runtimes and supervisors: 200 `{"status":"ok"}` while this process can
 * serve, 503 problem+json (`service_unavailable`, like every error of the service) while its database does not
 * answer, lacks migrations, cannot store writes (a full disk: the store's check tries one write while writes
 * fail), or the process is closing. At most one database check runs at a time, and every
 * request that arrives meanwhile shares its answer, so probes (unauthenticated, not rate-limited) can never add
 * load on the database; each check is answered within the timeout, even when the database never answers. The
 * reason is logged when the answer turns to 503 and when it turns back, not at every probe.
 */
export function createHealth({ ready, publicUrl, timeoutMs = HEALTH_TIMEOUT_MS, log = warnLine }: HealthOptions): Health {
  let closing = false;
  let running: Promise<Unready | null> | null = null;
  let down = false;

  /** Why the database cannot serve, or null when it can. */
  const check = (): Promise<Unready | null> =>
    (running ??= within(timeoutMs, ready)
      .then(() => null, (error: unknown) => ({ reason: reasonOf(error), storage: isStorageFailure(error) }))
      .finally(() => (running = null)));

  const unavailable = (res: ServerResponse, detail: string) => sendProblem(res, apiError.serviceUnavailable(detail), publicUrl);

  return {
    async answer(req, res) {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.setHeader('Allow', 'GET, HEAD');
        return sendProblem(res, apiError.methodNotAllowed('The health check answers GET and HEAD.'), publicUrl);
      }
      if (closing) return unavailable(res, 'The service is shutting down.');
      const unready = await check();
      if (unready !== null && !down) log(`health: the database cannot serve (${unready.reason}); /healthz answers 503`);
      if (unready === null && down) log('health: the database serves again; /healthz answers 200');
      down = unready !== null;
      if (unready?.storage) return unavailable(res, CANNOT_STORE);
      if (unready) return unavailable(res, 'The service cannot reach its database.');
      sendJson(res, 200, OK);
    },
    closing() {
      closing = true;
    },
  };
}

/** `work()`, or a rejection once `ms` passed without its answer (the work itself goes on, unobserved). */
async function within(ms: number, work: () => Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    await Promise.race([Promise.resolve().then(work), late]);
  } finally {
    clearTimeout(timer);
  }
}
