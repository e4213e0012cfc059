import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { trackWriteFailures, WRITE_FAILURE_LOG_MS } from '../../src/observability/write-failures.js';

/** A tracker logging into `lines` (parsed), on a clock the test moves. */
function tracked() {
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino({ base: null, timestamp: false }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  const clock = { ms: 1_000_000 };
  const failures = trackWriteFailures({ log: () => logger, now: () => clock.ms });
  return { lines, clock, failures };
}

const full = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });

describe('write failures: a condition told once a minute, not a stack per request', () => {
  it('logs the first failure at once, then at most a line a minute with how many failed since, then the end', () => {
    const { lines, clock, failures } = tracked();
    expect(failures.reason()).toBeNull();

    for (let i = 0; i < 300; i++) failures.failed(full);
    expect(failures.reason()).toBe('SQLITE_FULL: database or disk is full');
    expect(lines).toEqual([
      {
        level: 50,
        reason: 'SQLITE_FULL: database or disk is full',
        msg: 'The database cannot store writes (SQLITE_FULL: database or disk is full): each answers 503 until it can; told once a minute while it lasts',
      },
    ]);
    expect(JSON.stringify(lines)).not.toContain('stack');

    clock.ms += WRITE_FAILURE_LOG_MS - 1;
    failures.failed(full);
    expect(lines).toHaveLength(1);
    clock.ms += 1;
    failures.failed(full);
    expect(lines[1]).toEqual({
      level: 50,
      reason: 'SQLITE_FULL: database or disk is full',
      failed: 301,
      msg: 'The database still cannot store writes (SQLITE_FULL: database or disk is full): 301 more failed since the last line',
    });

    clock.ms += 10;
    for (let i = 0; i < 4; i++) failures.failed(full);
    failures.stored();
    expect(lines[2]).toEqual({ level: 40, failed: 306, msg: 'The database stores writes again; 306 failed meanwhile' });
    expect(failures.reason()).toBeNull();

    // Stored again: nothing to tell. Failing again: told at once, as a new condition.
    failures.stored();
    failures.failed(Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR_WRITE' }));
    expect(lines).toHaveLength(4);
    expect(lines[3]!.reason).toBe('SQLITE_IOERR_WRITE: disk I/O error');
  });
});
