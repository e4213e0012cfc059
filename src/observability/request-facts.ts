import type { ServerResponse } from 'node:http';

/**
 * What the request log line says beyond method, status and time, told by the code that learns it: the surface
 * names the operation (an API operation, an MCP tool or method), the gate names who called. Only ids and names
 * from the service's own lists are kept here, never what the caller sent: no token, path, query or body.
 */
export interface RequestFacts {
  /** The API operation, MCP tool or MCP method; null until the surface knows it (then the route decides). */
  operation: string | null;
  /** The person's id, once the gate admitted them. */
  person: string | null;
  /** The OAuth client's id, when an assistant's access token called. */
  client: string | null;
  /**
   * The refusal answered, by its status and error code: a problem's, or an MCP tool call's `isError` result, which
   * travels in an HTTP 200 and is still a refusal to count and log as one.
   */
  failure: Failure | null;
}

/** A refusal as the request log and metrics tell it. */
export interface Failure {
  status: number;
  code: string;
}

// Keyed by the answer, which every layer that learns something holds; a redirect never gets an entry.
const facts = new WeakMap<ServerResponse, RequestFacts>();

/** Starts the facts of a request that will be logged; a request without them (a redirect) ignores every note. */
export function followRequest(res: ServerResponse): RequestFacts {
  const record: RequestFacts = { operation: null, person: null, client: null, failure: null };
  facts.set(res, record);
  return record;
}

export function noteCaller(res: ServerResponse, person: string, client: string | null = null): void {
  const record = facts.get(res);
  if (!record) return;
  record.person = person;
  record.client = client;
}

/** The OAuth client that authenticated at the token endpoint, before any person is known. */
export function noteClient(res: ServerResponse, client: string): void {
  const record = facts.get(res);
  if (record) record.client = client;
}

export function noteOperation(res: ServerResponse, operation: string): void {
  const record = facts.get(res);
  if (record) record.operation = operation;
}

export function noteFailure(res: ServerResponse, failure: Failure): void {
  const record = facts.get(res);
  if (record) record.failure = failure;
}
