import type { z } from 'zod';
import type { ErrorCode } from '../errors.js';
import type { Config } from '../config.js';
import type { Cursors } from '../domain/cursor.js';
import type { AnswerSlot, Store } from '../store/ports.js';
import type { DestinationChecker } from '../destinations/checker.js';
import type { Limits } from '../domain/limits.js';
import type { Caller } from '../shared/caller.js';
import type { Clock } from '../shared/clock.js';
import type { InputChecks } from './faults.js';
import type { DomainDirectory } from '../domains/directory.js';
import type { LookForProof } from '../domains/proof-lookup.js';
import type { Random } from '../domain/random.js';

/** What every tool's `run` may use; built once in the composition root. */
export interface ToolContext {
  store: Store;
  clock: Clock;
  config: Config;
  cursors: Cursors;
  destinations: DestinationChecker;
  /**
   * Teams' own domains: every process's directory of them (where links are shown and served), how a domain is
   * proven through DNS, and the randomness its token is drawn from.
   */
  domains: { directory: DomainDirectory; lookForProof: LookForProof; random: Random };
}

/** The four MCP annotations; every tool sets all of them. */
export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** The views of MCP Apps (src/mcp/apps) a tool's result can be shown in, by name. */
export type ToolView = 'link-card' | 'clicks-chart' | 'link-list';

/**
 * A tool is a value: everything the MCP server, the HTTP facade, the OpenAPI document and the web app need to
 * know about one operation, and its one implementation.
 */
export interface Tool<I extends z.ZodObject = z.ZodObject, O extends z.ZodType = z.ZodType> {
  /** The MCP tool name. */
  name: string;
  /** The HTTP operationId (`POST /v1/<operation>`), or null for a tool only assistants have. */
  operation: string | null;
  title: string;
  /**
   * Written for an assistant: what it does, when to use it, what it returns. A function when it names the service's
   * address or limits, since those are the operator's and `limits set` changes them while the server runs.
   */
  description: string | ((facts: DescriptionFacts) => string);
  input: I;
  output: O;
  annotations: ToolAnnotations;
  /** The error codes particular to this operation (the spec's list); every call can also answer the common ones. */
  errors: readonly ErrorCode[];
  /** Takes an `Idempotency-Key` over HTTP. */
  takesIdempotencyKey: boolean;
  /** The MCP Apps view its result is shown in, for a client that shows views; none when absent. */
  view?: ToolView;
  /**
   * For a destructive tool: checks the caller may do it, then gives the question an assistant must put to the
   * person first (naming what will go).
   */
  confirmation?: (input: z.output<I>, caller: Caller, ctx: ToolContext) => Promise<string>;
  /**
   * The checks of an input before `run` writes (faults.ts), for a tool whose forms show every fault at once: `run`
   * throws the first they find, a form lists them all. A tool without them refuses only as it writes.
   */
  faults?: InputChecks<z.output<I>, unknown>;
  /**
   * A sentence for an assistant beside a result that is right but leaves the person stuck (no team, so an empty
   * list): MCP adds it as a text item; /v1 answers the spec's body alone. Null when there is nothing to add.
   */
  note?: (output: z.output<O>, caller: Caller, ctx: ToolContext) => Promise<string | null>;
  /** `once`: the call is idempotent (an `Idempotency-Key` over HTTP); its write keeps the answer (see Once). */
  run(input: z.output<I>, caller: Caller, ctx: ToolContext, once?: Once): Promise<z.output<O>>;
}

/**
 * What an idempotent call hands its tool: the one write that completes the call takes `slot(output)`, and keeps
 * the call's answer in its own transaction, so that no crash can leave the write made and its answer unkept (a
 * retry would make it again). `output` turns the store's result into the tool's (the answer's body).
 */
export interface Once {
  slot<T>(output: (result: T) => unknown): AnswerSlot<T>;
}

/** What a description may name. */
export interface DescriptionFacts {
  /** `PUBLIC_URL`, or the placeholder itself in documents written before any service runs. */
  publicUrl: string;
  limits: Limits;
}

export function describeTool(tool: Tool, facts: DescriptionFacts): string {
  return typeof tool.description === 'string' ? tool.description : tool.description(facts);
}

/** Typed identity, so each tool file infers its input and output types from its schemas. */
export function defineTool<I extends z.ZodObject, O extends z.ZodType>(tool: Tool<I, O>): Tool<I, O> {
  return tool;
}

/** The scope that lets a token call the tool: its operation name (or its tool name when it has none). */
export function scopeOf(tool: Tool): string {
  return tool.operation ?? tool.name;
}
