/**
 * Sends the outbox (issue 22): every server process runs a sender, which claims due messages in the store, so
 * with several processes (WORKERS=N, or several machines on one PostgreSQL) each message goes out once. A failed
 * attempt is logged by its error's code (never the message, whose links hold one-time tokens) and tried again
 * later, each wait twice the last, until MAX_ATTEMPTS; a server that refuses the recipient for good ends it at once.
 */
import { randomUUID } from 'node:crypto';
import { DAY_MS, HOUR_MS } from '../domain/limits.js';
import type { Clock } from '../shared/clock.js';
import { every, type PeriodicJob } from '../shared/periodic.js';
import type { ClaimedMail, MailOutbox } from '../store/ports.js';
import type { Deliver } from './transport.js';

/** Attempts before a message is given up: with a minute's first wait, the last comes some four hours after the first. */
export const MAX_ATTEMPTS = 8;
/** How long a claim holds: well beyond the transport's timeouts, so only a crashed sender's message is taken again. */
const CLAIM_MS = 5 * 60_000;
/** Messages claimed at once. */
const BATCH = 10;
/** How long a sent or given-up message's row (its text already blanked) is kept for the operator to look at. */
export const KEEP_MS = 30 * DAY_MS;
/** Rows older than KEEP_MS are deleted at most this often by each sender, and this many a statement. */
const PRUNE_EVERY_MS = HOUR_MS;
const PRUNE_BATCH = 500;

/** How an attempt ended: delivered, failed and tried again later, or failed and given up. */
export type MailOutcome = 'sent' | 'retried' | 'failed';

export interface MailSenderOptions {
  outbox: MailOutbox;
  deliver: Deliver;
  clock: Clock;
  /** The wait after a first failed attempt (MAIL_RETRY_MS). */
  retryMs: number;
  /** How often the outbox is looked at: a message queued anywhere goes out within this. */
  pollMs?: number;
  log: (line: string) => void;
  /** Told each attempt's outcome (the metrics). */
  counted?: (outcome: MailOutcome) => void;
}

/** runNow sends what is due now (or joins the round under way); stop ends the rounds. */
export type MailSender = Pick<PeriodicJob<void>, 'runNow' | 'stop'>;

/** The error's code and the server's reply code (`EENVELOPE 550`), never its words. */
function codeOf(error: unknown): { text: string; final: boolean } {
  const { code, responseCode } = (error ?? {}) as { code?: unknown; responseCode?: unknown };
  const name = typeof code === 'string' && /^[A-Z0-9_]{1,32}$/.test(code) ? code : 'ERROR';
  const reply = typeof responseCode === 'number' ? responseCode : null;
  // A 5xx refusal of the envelope (no such mailbox) will not change; a 5xx elsewhere (authentication) may, once
  // the operator fixes the configuration.
  return { text: reply === null ? name : `${name} ${reply}`, final: name === 'EENVELOPE' && reply !== null && reply >= 500 };
}

/** Starts the sender: a round every `pollMs`, rounds never overlapping. */
export function startMailSender(options: MailSenderOptions): MailSender {
  const { outbox, deliver, clock, retryMs, pollMs = 1000, log, counted = () => undefined } = options;
  const holder = `${process.pid}-${randomUUID()}`;
  let prunedAt = -Infinity;

  async function attempt(mail: ClaimedMail): Promise<void> {
    try {
      await deliver(mail);
    } catch (error) {
      const { text, final } = codeOf(error);
      const now = clock.now();
      if (final || mail.attempt >= MAX_ATTEMPTS) {
        await outbox.failed(mail.id, holder, text, null, now);
        counted('failed');
        log(`Mail ${mail.id} given up after ${mail.attempt} attempt${mail.attempt === 1 ? '' : 's'}: ${text}.`);
        return;
      }
      const waitMs = retryMs * 2 ** (mail.attempt - 1);
      await outbox.failed(mail.id, holder, text, new Date(now.getTime() + waitMs), now);
      counted('retried');
      log(`Mail ${mail.id} not sent (attempt ${mail.attempt} of ${MAX_ATTEMPTS}): ${text}; trying again in ${Math.ceil(waitMs / 1000)} s.`);
      return;
    }
    // Outside the try: a store that fails here must not count as a failed delivery, which would send it again.
    await outbox.sent(mail.id, holder, clock.now());
    counted('sent');
  }

  /** Deletes rows finished more than KEEP_MS ago, in batches, once an hour at most (whatever the poll). */
  async function prune(): Promise<void> {
    const now = clock.now().getTime();
    if (now - prunedAt < PRUNE_EVERY_MS) return;
    // Set first: a store that fails here is tried again in an hour, not at every round.
    prunedAt = now;
    let deleted: number;
    do deleted = await outbox.prune(new Date(now - KEEP_MS), PRUNE_BATCH);
    while (deleted === PRUNE_BATCH && !job.stopped());
  }

  async function round(): Promise<void> {
    await prune();
    while (!job.stopped()) {
      const now = clock.now();
      const claimed = await outbox.claim(holder, BATCH, new Date(now.getTime() + CLAIM_MS), now);
      for (const mail of claimed) await attempt(mail);
      if (claimed.length < BATCH) return;
    }
  }

  // A store that cannot be reached now is tried again at the next round; the messages wait in it.
  const job = every(pollMs, round, {
    result: () => undefined,
    failure: (error) => log(`Mail round failed: ${error instanceof Error ? error.message : String(error)}`),
  });
  return { runNow: job.runNow, stop: job.stop };
}
