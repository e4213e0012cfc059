import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cryptoRandom } from '../../src/domain/random.js';
import { KEEP_MS, MAX_ATTEMPTS, startMailSender, type MailOutcome, type MailSender } from '../../src/mail/sender.js';
import type { MailMessage, Store } from '../../src/store/ports.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { TestClock } from '../helpers/clock.js';

const MESSAGE: MailMessage = { to: 'ann@example.com', subject: 'Hello', text: 'secret-link-token', html: '<p>secret-link-token</p>' };
/** A refusal as nodemailer reports one: a code and the server's reply code, and words that must not be logged. */
const refusal = (code: string, responseCode: number) => Object.assign(new Error(`${responseCode} words about secret-link-token`), { code, responseCode });

describe('the mail sender', () => {
  let dir: string;
  let store: Store;
  let clock: TestClock;
  let sender: MailSender | undefined;
  const lines: string[] = [];
  const outcomes: MailOutcome[] = [];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'shortlinks-mail-'));
    store = openSqliteStore(join(dir, 'store.db'), cryptoRandom);
    clock = new TestClock();
    lines.length = 0;
    outcomes.length = 0;
  });
  afterEach(async () => {
    await sender?.stop();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function start(deliver: (message: MailMessage) => Promise<void>) {
    sender = startMailSender({ outbox: store.mailOutbox, deliver, clock, retryMs: 1000, pollMs: 60_000, log: (line) => lines.push(line), counted: (o) => outcomes.push(o) });
    return sender;
  }

  it('sends a queued message once', async () => {
    const sent: MailMessage[] = [];
    const s = start(async (message) => void sent.push(message));
    await store.mailOutbox.enqueue(MESSAGE, clock.now());
    await s.runNow();
    await s.runNow();
    expect(sent).toEqual([expect.objectContaining(MESSAGE)]);
    expect(await store.mailOutbox.counts()).toEqual({ pending: 0, sent: 1, failed: 0 });
    expect(outcomes).toEqual(['sent']);
  });

  it('tries again after 1, 2, 4... retry periods, logging the codes only, and gives up after the last attempt', async () => {
    let attempts = 0;
    const s = start(async () => {
      attempts++;
      throw refusal('EMESSAGE', 451);
    });
    await store.mailOutbox.enqueue(MESSAGE, clock.now());
    await s.runNow();
    expect(attempts).toBe(1);
    clock.advance(999);
    await s.runNow();
    expect(attempts).toBe(1);
    clock.advance(1);
    await s.runNow();
    expect(attempts).toBe(2);
    clock.advance(1999);
    await s.runNow();
    expect(attempts).toBe(2);
    for (let wait = 2000; attempts < MAX_ATTEMPTS; wait *= 2) {
      clock.advance(wait);
      await s.runNow();
    }
    expect(await store.mailOutbox.counts()).toEqual({ pending: 0, sent: 0, failed: 1 });
    clock.advance(24 * 3_600_000);
    await s.runNow();
    expect(attempts).toBe(MAX_ATTEMPTS);
    expect(lines[0]).toMatch(/^Mail [0-9a-f-]{36} not sent \(attempt 1 of 8\): EMESSAGE 451; trying again in 1 s\.$/);
    expect(lines.at(-1)).toMatch(/^Mail [0-9a-f-]{36} given up after 8 attempts: EMESSAGE 451\.$/);
    expect(lines.join('\n')).not.toContain('secret-link-token');
    expect(lines.join('\n')).not.toContain('ann@example.com');
    expect(outcomes).toEqual([...Array<MailOutcome>(MAX_ATTEMPTS - 1).fill('retried'), 'failed']);
  });

  it('gives up at once when the server refuses the recipient for good', async () => {
    const s = start(async () => {
      throw refusal('EENVELOPE', 550);
    });
    await store.mailOutbox.enqueue(MESSAGE, clock.now());
    await s.runNow();
    expect(await store.mailOutbox.counts()).toEqual({ pending: 0, sent: 0, failed: 1 });
    expect(lines).toEqual([expect.stringMatching(/^Mail [0-9a-f-]{36} given up after 1 attempt: EENVELOPE 550\.$/)]);
    expect(outcomes).toEqual(['failed']);
  });

  it('deletes what was sent or given up more than 30 days ago, looking at most once an hour', async () => {
    const s = start(async (message) => {
      if (message.to === 'refused@example.com') throw refusal('EENVELOPE', 550);
    });
    await store.mailOutbox.enqueue(MESSAGE, clock.now());
    await store.mailOutbox.enqueue({ ...MESSAGE, to: 'refused@example.com' }, clock.now());
    await s.runNow();
    expect(await store.mailOutbox.counts()).toEqual({ pending: 0, sent: 1, failed: 1 });
    clock.advance(KEEP_MS);
    await store.mailOutbox.enqueue(MESSAGE, clock.now());
    await s.runNow();
    // Exactly 30 days old: kept; the new one is sent.
    expect(await store.mailOutbox.counts()).toEqual({ pending: 0, sent: 2, failed: 1 });
    clock.advance(3_600_000 - 1);
    await s.runNow();
    expect(await store.mailOutbox.counts()).toEqual({ pending: 0, sent: 2, failed: 1 });
    clock.advance(1);
    await s.runNow();
    expect(await store.mailOutbox.counts()).toEqual({ pending: 0, sent: 1, failed: 0 });
  });
});
