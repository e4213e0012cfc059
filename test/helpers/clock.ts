import type { Clock } from '../../src/shared/clock.js';

/** A clock the test moves by hand. */
export class TestClock implements Clock {
  constructor(public current = new Date('2026-11-21T12:00:00.000Z')) {}
  now(): Date {
    return new Date(this.current);
  }
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}
