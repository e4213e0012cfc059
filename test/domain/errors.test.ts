import { describe, expect, it } from 'vitest';
import { ApiError, apiError, errorCatalogue, toApiError } from '../../src/errors.js';

describe('apiError: one named constructor per code', () => {
  it('has exactly one constructor per code of the table, each making that code with its status', () => {
    const catalogue = errorCatalogue();
    expect(Object.keys(apiError)).toHaveLength(catalogue.length);
    for (const { code, status, detail } of catalogue) {
      const name = code.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase()) as keyof typeof apiError;
      const made = apiError[name]();
      expect(made, code).toBeInstanceOf(ApiError);
      expect([made.code, made.status, made.detail, made.field, made.retryAfter]).toEqual([code, status, detail, null, undefined]);
    }
  });

  it('takes the detail, the field and the seconds to wait when it is made', () => {
    const made = apiError.limitReached('20 new links an hour.', 'links[2]', 120);
    expect(made.toProblem('https://links.example')).toEqual({
      type: 'https://links.example/docs/errors#limit_reached',
      title: 'Limit reached',
      status: 429,
      code: 'limit_reached',
      detail: '20 new links an hour.',
      field: 'links[2]',
    });
    expect(made.retryAfter).toBe(120);
  });

  it('turns anything else thrown into a 500 that shows nothing of it', () => {
    const made = toApiError(new Error('disk on fire'));
    expect([made.code, made.status, made.detail]).toEqual(['internal_server_error', 500, 'Something went wrong on our side.']);
  });
});
