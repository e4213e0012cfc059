import { errorCatalogue, statusOf, type ErrorCode } from '../errors.js';
import { describeTool, type Tool } from '../tools/define-tool.js';
import { DEFAULT_LIMITS } from '../domain/limits.js';
import { tools } from '../tools/index.js';
import { inputJsonSchema, outputJsonSchema } from '../tools/json-schema.js';

type Json = Record<string, unknown>;

/** Codes any POST can answer, whatever the tool (spec section 4: 400, 401, 403, 404, 429, 500, 503). A GET's 405
 * and a retired version's 410 never reach an operation, so they are not listed. */
const COMMON: readonly ErrorCode[] = [
  'bad_request', 'invalid_token', 'insufficient_scope', 'first_step', 'token_record_left', 'not_found',
  'rate_limited', 'internal_server_error', 'service_unavailable',
];
const IDEMPOTENCY: readonly ErrorCode[] = ['idempotency_key_in_use', 'idempotency_key_reused'];

const detailOf = new Map(errorCatalogue().map((entry) => [entry.code, entry.detail]));
const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

/** Every code a call of the tool can answer, without duplicates, grouped by HTTP status (ascending). */
function codesByStatus(tool: Tool): Map<number, ErrorCode[]> {
  const codes = new Set([...COMMON, ...tool.errors, ...(tool.takesIdempotencyKey ? IDEMPOTENCY : [])]);
  const groups = new Map<number, ErrorCode[]>();
  for (const code of [...codes].sort()) groups.set(statusOf(code), [...(groups.get(statusOf(code)) ?? []), code]);
  return new Map([...groups].sort(([a], [b]) => a - b));
}

/** Headers of every answer; a 429 or 503 also says when to retry. A replayed idempotent answer says so. */
function headersFor(status: number, tool: Tool): Json {
  const names = ['RateLimit', 'RateLimit-Policy'];
  if (status === 429 || status === 503) names.push('Retry-After');
  if (tool.takesIdempotencyKey) names.push('Idempotent-Replayed');
  return Object.fromEntries(names.map((name) => [name, ref('headers', name)]));
}

/** One response per status, its `code` narrowed to the codes possible there, so clients can switch on it. */
function errorResponse(tool: Tool, status: number, codes: ErrorCode[]): Json {
  const schema = { allOf: [ref('schemas', 'Problem'), { properties: { code: { enum: codes } } }] };
  return {
    description: codes.map((code) => `- \`${code}\`: ${detailOf.get(code)}`).join('\n'),
    headers: headersFor(status, tool),
    content: { 'application/problem+json': { schema } },
  };
}

/** The POST operation of one tool; its schemas live under components (named after the operation) so code
 * generators get stable type names. */
function operationOf(tool: Tool, operation: string, publicUrl: string): Json {
  const responses: Json = {
    '200': {
      description: 'Success.',
      headers: headersFor(200, tool),
      content: { 'application/json': { schema: ref('schemas', `${operation}Response`) } },
    },
  };
  for (const [status, codes] of codesByStatus(tool)) responses[String(status)] = errorResponse(tool, status, codes);
  return {
    operationId: operation,
    summary: tool.title,
    // Built once at start, so the limits named are the defaults (said so in info.description).
    description: describeTool(tool, { publicUrl, limits: DEFAULT_LIMITS }),
    'x-mcp-tool': tool.name,
    parameters: tool.takesIdempotencyKey ? [ref('parameters', 'Idempotency-Key')] : [],
    requestBody: { required: true, content: { 'application/json': { schema: ref('schemas', `${operation}Request`) } } },
    responses,
  };
}

/** The operations' own schemas. Cloned, since the json-schema cache is shared with the MCP server. */
function toolSchemas(operations: Array<[string, Tool]>): Json {
  const schemas: Json = {};
  for (const [operation, tool] of operations) {
    schemas[`${operation}Request`] = structuredClone(inputJsonSchema(tool));
    schemas[`${operation}Response`] = structuredClone(outputJsonSchema(tool));
  }
  return schemas;
}

/** The spec's problem body (RFC 9457); `code` lists every code of the catalogue. */
const problemSchema = {
  type: 'object',
  properties: {
    type: { type: 'string', format: 'uri', description: "The code's entry in the service's error docs." },
    title: { type: 'string' },
    status: { type: 'integer', description: 'The HTTP status.' },
    code: { type: 'string', enum: errorCatalogue().map((entry) => entry.code) },
    detail: { type: 'string', description: 'A sentence to show a person.' },
    field: { type: ['string', 'null'], description: 'The param at fault, like `destination` or `links[3].name`.' },
  },
  required: ['type', 'title', 'status', 'code', 'detail', 'field'],
};

const header = (description: string, schema: Json = { type: 'string' }) => ({ description, schema });

/**
 * The OpenAPI 3.1 document of the HTTP API, served at `<publicUrl>/v1/openapi.json`. It is generated from the
 * tool registry alone (every tool with an `operation` becomes `POST /v1/<operation>`), so it cannot drift from
 * what the facade answers; it is self-contained (internal `$ref`s only).
 */
export function openApiDocument(publicUrl: string): Record<string, unknown> {
  const operations = tools.flatMap((tool): Array<[string, Tool]> => (tool.operation ? [[tool.operation, tool]] : []));
  return {
    openapi: '3.1.0',
    info: {
      title: 'shortlinks API',
      version: '1',
      description:
        'Short links for people, scripts and AI assistants. Every operation is a POST with a JSON body. Limits ' +
        "named in descriptions are the defaults; this service's operator may set others, and a refused call " +
        'names the limit in force.',
    },
    servers: [{ url: `${publicUrl}/v1` }],
    security: [{ bearer: [] }],
    paths: Object.fromEntries(operations.map(([op, tool]) => [`/${op}`, { post: operationOf(tool, op, publicUrl) }])),
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description:
            'An API token, sent as `Authorization: Bearer <token>`. A signed-in person makes one on the Developers ' +
            'page of the app, or with `shortlinks token create`; it acts as that person.',
        },
      },
      parameters: {
        'Idempotency-Key': {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            'Makes a retry safe: the same key and body within 24 hours answers the first answer again (with ' +
            '`Idempotent-Replayed: true`); the same key with another body answers 422 `idempotency_key_reused`.',
          schema: { type: 'string', minLength: 1, maxLength: 255 },
        },
      },
      headers: {
        RateLimit: header('Calls left in the window and seconds to its reset: `"minute";r=<left>;t=<seconds>`.'),
        'RateLimit-Policy': header('The call budget per person: `"minute";q=<calls>;w=60`.'),
        'Retry-After': header('Seconds to wait before retrying.', { type: 'integer', minimum: 0 }),
        'Idempotent-Replayed': header('`true` when this is the stored answer of an earlier call with the same key.'),
      },
      schemas: { Problem: problemSchema, ...toolSchemas(operations) },
    },
  };
}
