import { describe, expect, it } from 'vitest';
import { sessionCapabilities } from '../../../src/mcp/sessions-2025/kept-capabilities.js';
import { SESSION_LIFETIME_MS, SessionIds, type SessionClaims } from '../../../src/mcp/sessions-2025/session-id.js';
import { TestClock } from '../../helpers/clock.js';

const secret = Buffer.alloc(32, 1);

function setUp() {
  const clock = new TestClock(new Date('2026-11-21T12:00:00.400Z'));
  const ids = new SessionIds(secret, clock);
  const claims = ids.claims('person_0123456789abcdef', '2025-11-25', { elicitation: { form: {} } }, { name: 'client', version: '1.2.3' });
  return { clock, ids, claims };
}

describe('session ids', () => {
  it('carry the claims back, the time in whole seconds', () => {
    const { ids, claims } = setUp();
    expect(claims.issuedAt).toBe(Date.parse('2026-11-21T12:00:00.000Z'));
    expect(ids.read(ids.issue(claims))).toEqual(claims);
  });

  it('are different every time, URL-safe visible ASCII, and short even for the most a client can declare', () => {
    const { ids } = setUp();
    const most = sessionCapabilities({
      elicitation: { form: { applyDefaults: true }, url: {} },
      sampling: { context: {}, tools: {} },
      roots: { listChanged: true },
    });
    const claims = ids.claims('person_0123456789abcdef', '2025-11-25', most, { name: 'n'.repeat(500), version: 'v'.repeat(500) });
    const [one, two] = [ids.issue(claims), ids.issue(claims)];
    expect(one).not.toBe(two);
    expect(one).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(one.length).toBeLessThan(512);
    expect(ids.read(one)!.clientInfo).toEqual({ name: 'n'.repeat(64), version: 'v'.repeat(64) });
  });

  it('show nothing of the claims', () => {
    const { ids, claims } = setUp();
    const raw = Buffer.from(ids.issue(claims), 'base64url').toString('latin1');
    for (const part of ['person_', 'client', '2025', 'elicitation']) expect(raw).not.toContain(part);
  });

  it('work for 24 hours after initialize, and not a second longer', () => {
    const { clock, ids, claims } = setUp();
    const id = ids.issue(claims);
    clock.advance(SESSION_LIFETIME_MS - 1000);
    expect(ids.read(id)).toEqual(claims);
    clock.advance(1000);
    expect(ids.read(id)).toBeNull();
  });

  it('are refused with any bit changed, anything added or cut, or under another key', () => {
    const { clock, ids, claims } = setUp();
    const id = ids.issue(claims);
    const raw = Buffer.from(id, 'base64url');
    for (let bit = 0; bit < raw.length * 8; bit++) {
      const changed = Buffer.from(raw);
      changed[bit >> 3]! ^= 1 << (bit & 7);
      expect(ids.read(changed.toString('base64url'))).toBeNull();
    }
    for (const other of [`${id}A`, id.slice(0, -1), id.slice(1), `${id}=`, ` ${id}`, '', 'not-a-session', '9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d']) {
      expect(ids.read(other)).toBeNull();
    }
    expect(new SessionIds(Buffer.alloc(32, 2), clock).read(id)).toBeNull();
  });
});

describe('sessionCapabilities', () => {
  it('keeps what the server acts on, as declared', () => {
    const declared = { elicitation: { form: { applyDefaults: true }, url: {} }, sampling: { context: {}, tools: {} }, roots: { listChanged: false } };
    expect(sessionCapabilities(declared)).toEqual(declared);
    // A bare elicitation means forms only (capabilities.ts), so it stays bare.
    expect(sessionCapabilities({ elicitation: {} })).toEqual({ elicitation: {} });
    expect(sessionCapabilities({ elicitation: { url: {} } })).toEqual({ elicitation: { url: {} } });
    expect(sessionCapabilities({})).toEqual({});
  });

  it('keeps MCP Apps as the one media type the views are made in, and only when the client listed it', () => {
    const apps = { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } };
    const many = { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/x-other', 'text/html;profile=mcp-app'], more: 'x'.repeat(10_000) }, other: {} };
    expect(sessionCapabilities({ extensions: many } as never)).toEqual({ extensions: apps });
    expect(sessionCapabilities({ extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html'] } } } as never)).toEqual({});
    expect(sessionCapabilities({ extensions: { 'io.modelcontextprotocol/ui': {} } } as never)).toEqual({});
  });

  it('leaves out everything else, so a client cannot make its id grow', () => {
    const declared = {
      experimental: { big: 'x'.repeat(10_000) },
      elicitation: { form: { applyDefaults: 'yes', extra: 'x'.repeat(10_000) }, other: {} },
      roots: { listChanged: true, more: [1, 2, 3] },
      tasks: { list: {} },
    } as unknown as Parameters<typeof sessionCapabilities>[0];
    expect(sessionCapabilities(declared)).toEqual<SessionClaims['capabilities']>({ elicitation: { form: {} }, roots: { listChanged: true } });
  });
});
