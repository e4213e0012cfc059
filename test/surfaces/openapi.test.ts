import { compileErrors, validate } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/http-facade/openapi.js';

type Json = Record<string, any>;

const PUBLIC_URL = 'https://sho.rt';
const doc = openApiDocument(PUBLIC_URL) as Json;

/** What the spec (section 4) says of each operation: its params and its own error codes by status. Written out by
 * hand from the spec, not read from the tools, so a tool that drifts from the spec fails here. */
const SPEC: Record<string, { params: string[]; errors: Record<number, string[]> }> = {
  listTeams: { params: ['limit', 'after'], errors: { 400: ['cursor_mismatch'] } },
  createLink: {
    // After the spec's four, issue 24's link options (docs/behaviour.md, "Link options"), with their own codes.
    params: ['team', 'destination', 'name', 'note', 'expiresAt', 'maxClicks', 'password', 'tags', 'forwardQuery'],
    errors: {
      400: ['blocked_destination', 'invalid_destination', 'invalid_name', 'invalid_note', 'private_destination',
        'reserved_name', 'shortener_destination', 'unsafe_destination', 'invalid_expiry', 'invalid_max_clicks',
        'invalid_password', 'invalid_tag'],
      409: ['name_taken', 'team_full'],
      429: ['limit_reached'],
      503: ['check_unavailable'],
    },
  },
  createLinks: { params: ['team', 'links'], errors: {} },
  // tag: issue 24's (docs/behaviour.md, "Link options").
  listLinks: { params: ['team', 'state', 'q', 'tag', 'limit', 'after'], errors: { 400: ['cursor_mismatch'] } },
  getLink: { params: ['code'], errors: {} },
  setDestination: {
    params: ['code', 'destination'],
    errors: {
      400: ['blocked_destination', 'invalid_destination', 'private_destination', 'shortener_destination',
        'unsafe_destination'],
      409: ['link_disabled', 'link_flagged'],
      429: ['limit_reached'],
      503: ['check_unavailable'],
    },
  },
  setNote: { params: ['code', 'note'], errors: { 400: ['invalid_note'] } },
  renameLink: {
    params: ['code', 'name'],
    errors: { 400: ['invalid_name', 'reserved_name'], 409: ['link_disabled', 'link_flagged', 'name_taken'], 429: ['limit_reached'] },
  },
  deleteLink: { params: ['code'], errors: { 429: ['limit_reached'] } },
  linkClicks: { params: ['code'], errors: {} },
  // Not the spec's: issue 23 adds it (docs/behaviour.md, "Click analytics").
  clickBreakdown: { params: ['code', 'team', 'by', 'days'], errors: {} },
  // Not the spec's: issue 24 adds them (docs/behaviour.md, "Link options").
  listTags: { params: ['team'], errors: {} },
  setLinkOptions: {
    params: ['code', 'expiresAt', 'maxClicks', 'password', 'tags', 'forwardQuery'],
    errors: {
      400: ['invalid_expiry', 'invalid_max_clicks', 'invalid_password', 'invalid_tag'],
      409: ['link_disabled', 'link_flagged'],
      429: ['limit_reached'],
    },
  },
};

const COMMON: Record<number, string[]> = {
  400: ['bad_request'],
  401: ['invalid_token'],
  403: ['insufficient_scope', 'first_step', 'token_record_left'],
  404: ['not_found'],
  429: ['rate_limited'],
  500: ['internal_server_error'],
  503: ['service_unavailable'],
};

const IDEMPOTENT = ['createLink', 'createLinks', 'setDestination', 'setNote', 'setLinkOptions', 'renameLink', 'deleteLink'];

/** Follows a local `$ref` (`#/components/...`) to its target. */
function deref(node: Json): Json {
  if (typeof node.$ref !== 'string') return node;
  const target = (node.$ref as string).slice(2).split('/').reduce((at: Json, key) => at[key], doc);
  return deref(target);
}

const post = (operation: string): Json => doc.paths[`/${operation}`].post;

/** The codes a response allows: the enum of its `allOf` narrowing. */
function codesAt(operation: string, status: number): string[] {
  const response = deref(post(operation).responses[String(status)] ?? {});
  const schema = response.content?.['application/problem+json']?.schema;
  return schema?.allOf?.[1]?.properties?.code?.enum ?? [];
}

async function check(document: Json) {
  // validate() may resolve refs in place: give it a copy.
  return validate(structuredClone(document) as Parameters<typeof validate>[0]);
}

describe('OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await check(doc);
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
  });

  // OpenAPI 3.1 made an operation's `responses` optional, so deleting them is still valid: break what 3.1 requires.
  const breaks: Record<string, (broken: Json) => void> = {
    'a response without its description': (broken) => delete broken.paths['/createLink'].post.responses['200'].description,
    'a dangling $ref': (broken) => (broken.paths['/createLink'].post.requestBody.content['application/json'].schema = {
      $ref: '#/components/schemas/Missing',
    }),
    'a header parameter put in the body': (broken) => (broken.components.parameters['Idempotency-Key'].in = 'body'),
  };

  it.each(Object.entries(breaks))('is rejected with %s, so the validator really runs', async (_, breakIt) => {
    const broken = structuredClone(doc);
    breakIt(broken);
    const result = await check(broken);
    expect(result.valid).toBe(false);
    expect(result.valid ? [] : result.errors).not.toHaveLength(0);
  });

  it('is self-contained and survives JSON', () => {
    const text = JSON.stringify(doc);
    const refs = [...text.matchAll(/"\$ref":"([^"]*)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThan(0);
    for (const target of refs) {
      expect(target.startsWith('#/components/')).toBe(true);
      expect(deref({ $ref: target })).toBeDefined();
    }
    expect(JSON.parse(text)).toEqual(doc);
  });

  it('names the server, the API and bearer auth, applied globally', () => {
    expect(doc.servers).toEqual([{ url: `${PUBLIC_URL}/v1` }]);
    expect(doc.info).toMatchObject({ title: 'shortlinks API', version: '1' });
    const [name] = Object.keys(doc.security[0]);
    expect(doc.components.securitySchemes[name!]).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.securitySchemes[name!].description).toMatch(/Developers page|shortlinks token create/);
  });

  it('has exactly the 10 operations of the spec, clickBreakdown, listTags and setLinkOptions, each a POST named after its tool', () => {
    expect(Object.keys(doc.paths).sort()).toEqual(Object.keys(SPEC).map((op) => `/${op}`).sort());
    for (const operation of Object.keys(SPEC)) {
      expect(Object.keys(doc.paths[`/${operation}`])).toEqual(['post']);
      expect(post(operation)).toMatchObject({ operationId: operation, 'x-mcp-tool': expect.any(String) });
      expect(post(operation).summary).toBeTruthy();
      expect(post(operation).description).toBeTruthy();
    }
  });

  it.each(Object.entries(SPEC))('%s takes every param of the spec and no other', (operation, { params }) => {
    const body = post(operation).requestBody;
    expect(body.required).toBe(true);
    const schema = deref(body.content['application/json'].schema);
    expect(schema.type).toBe('object');
    expect(Object.keys(schema.properties).sort()).toEqual([...params].sort());
    expect(schema.additionalProperties).toBe(false);
  });

  it.each(Object.entries(SPEC))('%s answers its own and the common error codes', (operation, { errors }) => {
    const expected: Record<number, string[]> = { ...COMMON };
    for (const [status, codes] of Object.entries(errors)) expected[Number(status)] = [...(expected[Number(status)] ?? []), ...codes];
    if (IDEMPOTENT.includes(operation)) {
      expected[409] = [...(expected[409] ?? []), 'idempotency_key_in_use'];
      expected[422] = ['idempotency_key_reused'];
    }
    for (const [status, codes] of Object.entries(expected)) {
      expect(codesAt(operation, Number(status))).toEqual(expect.arrayContaining(codes));
      const response = deref(post(operation).responses[status]);
      for (const code of codes) expect(response.description).toContain(code);
      expect(response.content['application/problem+json'].schema.allOf[0]).toEqual({ $ref: '#/components/schemas/Problem' });
    }
    expect(post(operation).responses['405']).toBeUndefined();
  });

  it('describes the problem body, every member required', () => {
    const problem = doc.components.schemas.Problem;
    const members = ['type', 'title', 'status', 'code', 'detail', 'field'];
    expect(Object.keys(problem.properties).sort()).toEqual([...members].sort());
    expect([...problem.required].sort()).toEqual([...members].sort());
    expect(problem.properties.field.type).toEqual(['string', 'null']);
  });

  it('takes Idempotency-Key on exactly the operations of the spec', () => {
    for (const operation of Object.keys(SPEC)) {
      const headers = (post(operation).parameters ?? []).map(deref).filter((p: Json) => p.in === 'header');
      const key = headers.find((p: Json) => p.name === 'Idempotency-Key');
      if (IDEMPOTENT.includes(operation)) {
        expect(key).toMatchObject({ schema: { type: 'string', minLength: 1, maxLength: 255 } });
        expect(key.description).toBeTruthy();
      } else {
        expect(key).toBeUndefined();
      }
    }
  });

  it('shows the RateLimit headers on every answer and Retry-After on 429 and 503', () => {
    for (const operation of Object.keys(SPEC)) {
      for (const [status, response] of Object.entries(post(operation).responses as Json)) {
        const headers = deref(response).headers ?? {};
        expect(Object.keys(headers)).toEqual(expect.arrayContaining(['RateLimit', 'RateLimit-Policy']));
        if (status === '429' || status === '503') expect(headers['Retry-After']).toBeDefined();
      }
    }
  });

  it('answers 200 with the output schema; deleteLink with null', () => {
    const ok = (operation: string) => deref(post(operation).responses['200'].content['application/json'].schema);
    expect(ok('deleteLink')).toEqual({ type: 'null' });
    expect(Object.keys(ok('getLink').properties)).toEqual(expect.arrayContaining(['code', 'destination', 'state']));
    expect(Object.keys(ok('listLinks').properties).sort()).toEqual(['data', 'next']);
  });
});
