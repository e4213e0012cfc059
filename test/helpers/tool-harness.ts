import { randomBytes } from 'node:crypto';
/**
 * The fast layer's one helper: a tool's `run` on a real SQLite store in memory, with the clock, randomness and the
 * network checks in the test's hands, and no server. `call` does exactly what every surface does before `run`
 * (`prepareCall`: scopes, then params), so a test here sees the codes a script or an assistant would.
 */
import { expect } from 'vitest';
import type { z } from 'zod';
import { loadConfig } from '../../src/config.js';
import { destinationChecker, type NetworkCheck } from '../../src/destinations/checker.js';
import { unsafeSitesCheck } from '../../src/destinations/unsafe/provider.js';
import { Cursors } from '../../src/domain/cursor.js';
import type { Limits } from '../../src/domain/limits.js';
import type { LinkState } from '../../src/domain/link-state.js';
import { cryptoRandom, type Random } from '../../src/domain/random.js';
import { ApiError, apiError, type ErrorCode } from '../../src/errors.js';
import type { Store } from '../../src/store/ports.js';
import { domainDirectory } from '../../src/domains/directory.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { createLink } from '../../src/tools/create-link.js';
import type { Caller } from '../../src/shared/caller.js';
import type { Tool, ToolContext } from '../../src/tools/define-tool.js';
import { prepareCall } from '../../src/tools/prepare-call.js';
import { toLink, type Link } from '../../src/tools/schemas.js';
import { TestClock } from './clock.js';

export type { Caller };

/** The service's own address in these tests: a public host name, so the own-host rule can be reached. */
export const PUBLIC_URL = 'https://lnk.example.net';

/** A person with a team of their own, calling as a fresh personal token does: no scopes, not limited. */
export interface Actor extends Caller {
  email: string;
  teamId: string;
}

/** What a failed call threw, as the surfaces show it (problem+json, an isError result, a createLinks item). */
export interface Failure {
  status: number;
  code: ErrorCode;
  detail: string;
  field: string | null;
  /** Seconds, on 429 and 503 answers that say when to retry (the surfaces send it as Retry-After). */
  retryAfter?: number;
}

/** The failure a test expects: exact status, code and field; `detail` any sentence unless given. */
export function problem(status: number, code: ErrorCode, field: string | null = null, detail?: string): Failure {
  return { status, code, field, detail: detail ?? expect.stringMatching(/\S/) };
}

/**
 * The destination checks that need the network (DNS, unsafe-site lists), answered from what the test puts here.
 * The DNS half is a stand-in that throws what the real check throws; the lists go through the real rule-6 check
 * (`unsafeSitesCheck`, uncached) with an in-memory list as its one provider.
 */
export class FakeNetwork {
  /** Host names whose DNS answer holds a private address. */
  readonly privateHosts = new Set<string>();
  /** Host names with no A or AAAA record. */
  readonly missingHosts = new Set<string>();
  /** Addresses on the unsafe-site list, as the lists are asked: without the fragment, the host normalized. */
  readonly unsafeUrls = new Set<string>();
  /** The resolver times out, or the list cannot be asked. */
  dnsDown = false;
  listDown = false;
  /** A check fails in a way that is our fault (not an ApiError). */
  fault = false;
  /** Every host the DNS check was asked about, and every address the list was asked about, in order. */
  readonly askedDns: string[] = [];
  readonly askedLists: string[] = [];

  readonly privateNetwork: NetworkCheck = {
    check: async ({ host }, field) => {
      this.askedDns.push(host);
      if (this.fault) throw new Error('a fault in the DNS check');
      if (this.privateHosts.has(host)) throw apiError.privateDestination('Resolves to a private address.', field);
      if (this.dnsDown) throw apiError.checkUnavailable('The name could not be looked up.', field, 60);
      if (this.missingHosts.has(host)) throw apiError.invalidDestination('No such host name.', field);
    },
  };

  readonly unsafeSites = unsafeSitesCheck(
    [
      {
        name: 'test-list',
        lookup: async (urls) => {
          this.askedLists.push(...urls);
          if (this.listDown) throw new Error('the list is down');
          return new Set(urls.filter((url) => this.unsafeUrls.has(url)));
        },
      },
    ],
    { cacheSize: 0, log: () => {} },
  );
}

/** One test's world: a fresh store, a clock at 2026-11-21T12:00Z, the tool context the app would build. */
export class ToolHarness {
  readonly clock = new TestClock();
  readonly network = new FakeNetwork();
  readonly store: Store;
  readonly ctx: ToolContext;
  private people = 0;

  /** `store`: another store to run on (the in-process MCP tests' PostgreSQL run); a SQLite one in memory unless given. */
  constructor(options: { random?: Random; store?: Store } = {}) {
    const config = loadConfig({ PUBLIC_URL });
    this.store = options.store ?? openSqliteStore(':memory:', options.random ?? cryptoRandom);
    this.ctx = {
      store: this.store,
      clock: this.clock,
      config,
      // Any secret signs cursors; the store's is read asynchronously, and a constructor cannot wait for it.
      cursors: new Cursors(randomBytes(32)),
      destinations: destinationChecker({
        publicUrl: config.publicUrl,
        settings: this.store.settings,
        privateNetwork: this.network.privateNetwork,
        unsafeSites: this.network.unsafeSites,
      }),
      domains: {
        directory: domainDirectory(this.store, config.publicUrl),
        // Tools prove no domain: a test that does starts a server with a DNS stand-in (test/e2e/custom-domains).
        lookForProof: async () => ({ unanswered: 'ENOTIMP' }),
        random: options.random ?? cryptoRandom,
      },
    };
  }

  close(): void {
    this.store.close();
  }

  /**
   * Runs the tool as a surface would: `prepareCall` (scopes, params), then `run`. Answers the result, or the
   * Failure of an ApiError; anything else thrown is a fault and fails the test.
   */
  async call<I extends z.ZodObject, O extends z.ZodType>(
    tool: Tool<I, O>,
    caller: Caller,
    params: unknown,
  ): Promise<z.output<O> | Failure> {
    try {
      return await this.ok(tool, caller, params);
    } catch (error) {
      if (error instanceof ApiError) return failureOf(error);
      throw error;
    }
  }

  /** `call` for a call that must succeed: its result, typed. */
  async ok<I extends z.ZodObject, O extends z.ZodType>(tool: Tool<I, O>, caller: Caller, params: unknown): Promise<z.output<O>> {
    const input = prepareCall(tool as unknown as Tool, caller, params);
    return tool.run(input as z.output<I>, caller, this.ctx);
  }

  /**
   * A person who agreed to the terms (unless `agreed: false`), owner of a new team, made now. Established for
   * reports only when `addedByOperator` (or once old enough).
   */
  async person(options: { teamName?: string; agreed?: boolean; addedByOperator?: boolean } = {}): Promise<Actor> {
    const { teamName = 'Team', agreed = true, addedByOperator = false } = options;
    const email = `person${++this.people}@example.com`;
    const now = this.clock.now();
    const person = await this.store.people.add({ email, passwordHash: null, agreedTerms: agreed, addedByOperator }, now);
    const team = await this.store.teams.add({ name: teamName, ownerId: person.id }, now);
    return { personId: person.id, scopes: null, recordTeamId: null, email, teamId: team.id };
  }

  /** The actor calling through a token with `scopes` (operation names), or limited to `limitedTo`'s record. */
  caller(actor: Actor, options: { scopes?: string[]; limitedTo?: string }): Caller {
    return {
      personId: actor.personId,
      scopes: options.scopes ? new Set(options.scopes) : null,
      recordTeamId: options.limitedTo ?? null,
    };
  }

  /** Another team, owned by the actor. */
  async team(actor: Actor, name: string): Promise<string> {
    return (await this.store.teams.add({ name, ownerId: actor.personId }, this.clock.now())).id;
  }

  /** Adds the actor to a team as a member. */
  async join(teamId: string, actor: Actor): Promise<void> {
    expect(await this.store.teams.addMember(teamId, actor.personId, this.clock.now())).toBe('added');
  }

  /** A link made by createLink, which must succeed; `https://example.com/page` unless a destination is given. */
  async link(
    actor: Caller & { teamId?: string },
    fields: { destination?: string; name?: string | null; note?: string | null; tags?: string[] } = {},
    team = actor.teamId,
  ): Promise<Link> {
    return this.ok(createLink, actor, { team, destination: 'https://example.com/page', ...fields });
  }

  /** The operator flags, disables or restores a link (the CLI's `link flag|disable|restore`). */
  async setState(code: string, state: LinkState): Promise<void> {
    expect((await this.store.links.setState(code, state, this.clock.now()))?.state).toBe(state);
  }

  async setLimits(changes: Partial<Limits>): Promise<void> {
    await this.store.settings.setLimits(changes);
  }

  /** The operator blocks a domain (the CLI's `block add`, which stores it normalized). */
  async block(domain: string): Promise<void> {
    await this.store.settings.block(domain, this.clock.now());
  }

  /** Counted clicks of a link: date → clicks. */
  async clicks(linkId: string, days: Record<string, number>): Promise<void> {
    await this.store.clicks.add(new Map([[linkId, new Map(Object.entries(days))]]));
  }

  /** The link as stored now, or null once it is deleted. */
  async stored(code: string): Promise<Link | null> {
    const record = await this.store.links.findByCode(code);
    return record && toLink(record, this.ctx.config.publicUrl);
  }
}

function failureOf(error: ApiError): Failure {
  const { status, code, detail, field, retryAfter } = error;
  return retryAfter === undefined ? { status, code, detail, field } : { status, code, detail, field, retryAfter };
}

/**
 * Randomness that proposes the given codes first, in order, then draws as usual: codes are the only 7-character
 * strings drawn (14 bytes), so a test can make a new code collide with an old one on purpose.
 */
export function scriptedCodes(codes: string[]): Random {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const queue = [...codes];
  return {
    bytes(n) {
      const code = n === 14 ? queue.shift() : undefined;
      if (code === undefined) return cryptoRandom.bytes(n);
      const bytes = Buffer.alloc(n);
      [...code].forEach((char, i) => (bytes[i] = alphabet.indexOf(char)));
      return bytes;
    },
  };
}
