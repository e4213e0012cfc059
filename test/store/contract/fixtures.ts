import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach } from 'vitest';
import { CODE_LENGTH } from '../../../src/domain/code.js';
import { DEFAULT_LIMITS, type Limits } from '../../../src/domain/limits.js';
import type { Random } from '../../../src/domain/random.js';
import { ApiError, type ErrorCode } from '../../../src/errors.js';
import type { LinkOptions, LinkRecord, Person, Store, Team } from '../../../src/store/ports.js';

/** A store opened on a database of its own, empty, for one test. */
export interface OpenedStore {
  store: Store;
  /** Closes the store and opens the same database again (what a restart sees); absent when the adapter cannot. */
  reopen?: () => Promise<Store>;
  /** Closes whichever store is open last and throws the database away. */
  close: () => Promise<void>;
}

/**
 * Opens a fresh store for one test. The adapter must draw its randomness (link codes among it) from `random`, as
 * `openStore(config, random)` does, so the suite can make codes collide on purpose.
 */
export type OpenStore = (random: Random) => Promise<OpenedStore>;

export const T0 = new Date('2026-11-21T12:00:00.000Z');
export const MINUTE = 60_000;
export { DAY_MS, HOUR_MS } from '../../../src/domain/limits.js';

/** `ms` after T0 (before it when negative). */
export const at = (ms: number) => new Date(T0.getTime() + ms);

/** Limits no test reaches unless it lowers one of them. */
export const ROOMY: Limits = Object.freeze({
  ...DEFAULT_LIMITS,
  maxLinksPerTeam: 1000,
  perHour: 1000,
  perDay: 1000,
  firstWeekPerDay: 1000,
  changesPerHour: 1000,
});

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * Cryptographic randomness, except that the next link codes drawn can be told in advance. A code is drawn as
 * `randomString(random, CODE_LENGTH)`, which asks for twice as many bytes and skips bytes of 248 and above.
 */
export class ScriptedRandom implements Random {
  private readonly codes: string[] = [];

  /** The next codes drawn, in order; random ones after them. */
  drawNext(...codes: string[]): void {
    this.codes.push(...codes);
  }

  bytes(n: number): Buffer {
    const code = n === CODE_LENGTH * 2 ? this.codes.shift() : undefined;
    if (code === undefined) return randomBytes(n);
    return Buffer.from([...code].map((c) => ALPHABET.indexOf(c)).concat(Array<number>(n - code.length).fill(255)));
  }
}

/** An ApiError as the surfaces render it; `retryAfter` only when the error carries one. */
export interface Failure {
  status: number;
  code: ErrorCode;
  field: string | null;
  retryAfter?: number;
}

/** What the call rejected with; fails the test when it resolved or rejected with something else. */
export async function failure(call: Promise<unknown>): Promise<Failure> {
  try {
    await call;
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const { status, code, field, retryAfter } = err;
    return retryAfter === undefined ? { status, code, field } : { status, code, field, retryAfter };
  }
  throw new Error('expected an ApiError, but the call succeeded');
}

export interface NewPerson {
  email?: string;
  passwordHash?: string | null;
  agreedTerms?: boolean;
  addedByOperator?: boolean;
}

export interface NewTestLink extends Partial<LinkOptions> {
  destination?: string;
  name?: string | null;
  note?: string | null;
}

/** The store of the running test, and shortcuts to fill it. */
export interface StoreUnderTest {
  readonly store: Store;
  readonly random: ScriptedRandom;
  readonly canReopen: boolean;
  /** Closes the store and opens the database again; `store` is the new one afterwards. */
  reopen(): Promise<Store>;
  person(input?: NewPerson, now?: Date): Promise<Person>;
  /** A team of `owner` (a new person when absent). */
  team(owner?: Person, name?: string, now?: Date): Promise<Team>;
  link(team: Team, input?: NewTestLink, now?: Date, limits?: Limits): Promise<LinkRecord>;
}

/**
 * Opens a fresh store before each test of the describe() it is called in, and closes it after. Call it in a describe()
 * of its own: its hooks apply to every test there, nested ones included.
 */
export function storeUnderTest(open: OpenStore): StoreUnderTest {
  let opened: OpenedStore | null = null;
  let current: Store | null = null;
  let random = new ScriptedRandom();
  let people = 0;

  beforeEach(async () => {
    random = new ScriptedRandom();
    opened = await open(random);
    current = opened.store;
  });
  afterEach(async () => {
    const done = opened;
    opened = null;
    current = null;
    await done?.close();
  });

  const live = () => {
    if (!current) throw new Error('no store is open outside a test');
    return current;
  };

  return {
    get store() {
      return live();
    },
    get random() {
      return random;
    },
    get canReopen() {
      return opened?.reopen !== undefined;
    },
    async reopen() {
      if (!opened?.reopen) throw new Error('this adapter cannot reopen its database');
      current = await opened.reopen();
      return current;
    },
    async person(input = {}, now = T0) {
      const { email = `person${++people}@example.com`, passwordHash = 'hash', agreedTerms = true, addedByOperator } = input;
      return live().people.add({ email, passwordHash, agreedTerms, addedByOperator }, now);
    },
    async team(owner, name = 'Team', now = T0) {
      return live().teams.add({ name, ownerId: (owner ?? (await this.person())).id }, now);
    },
    async link(team, input = {}, now = T0, limits = ROOMY) {
      const { destination = 'https://example.com/', name = null, note = null, ...options } = input;
      const teamCreatedAt = new Date(team.createdAt);
      return live().links.create({ teamId: team.id, teamCreatedAt, destination, name, note, ...options }, limits, now);
    },
  };
}

/** Sorted copies, for lists whose order the port does not promise. */
export const sorted = <T>(items: Iterable<T>, key: (item: T) => string = String): T[] =>
  [...items].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
