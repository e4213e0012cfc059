import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../shared/clock.js';

/** How long a person has to answer a confirmation question before its state is refused. */
export const REQUEST_STATE_TTL_MS = 10 * 60_000;

/** What a confirmation's state stands for: one person, one tool, one input (for deleteLink, one link). */
export interface StateBinding {
  personId: string;
  tool: string;
  input: unknown;
}

/**
 * The `requestState` of an input-required answer (MCP 2026-07-28). It travels through the client and comes back
 * as the client's word, so it is signed and names, as a digest, the person, the tool and the input it was issued
 * for, with an expiry by the service's clock. The key is derived from the cursor secret, which lives in the
 * database, so any process of the service can check a state another one issued.
 */
export class RequestStates {
  private readonly key: Buffer;

  constructor(
    secret: Buffer,
    private readonly clock: Clock,
  ) {
    // A key of its own, so a state can never pass for a paging cursor or the other way round.
    this.key = createHmac('sha256', secret).update('mcp requestState').digest();
  }

  issue(binding: StateBinding): string {
    const payload = Buffer.from(JSON.stringify({ b: digest(binding), e: this.clock.now().getTime() + REQUEST_STATE_TTL_MS })).toString('base64url');
    return `${payload}.${this.sign(payload)}`;
  }

  /** True only for an untampered state issued for exactly this binding that has not expired. */
  holds(state: string, binding: StateBinding): boolean {
    const [payload, signature, extra] = state.split('.');
    if (!payload || !signature || extra !== undefined || !this.signed(payload, signature)) return false;
    let decoded: { b?: unknown; e?: unknown };
    try {
      decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      return false;
    }
    return decoded.b === digest(binding) && typeof decoded.e === 'number' && this.clock.now().getTime() < decoded.e;
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.key).update(payload).digest('base64url');
  }

  private signed(payload: string, signature: string): boolean {
    const expected = Buffer.from(this.sign(payload));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}

function digest(binding: StateBinding): string {
  return createHash('sha256').update(JSON.stringify([binding.personId, binding.tool, binding.input])).digest('base64url');
}
