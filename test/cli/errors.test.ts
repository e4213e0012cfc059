import { describe, expect, it } from 'vitest';
import { asCliError, CliError } from '../../src/cli/errors.js';
import { apiError } from '../../src/errors.js';

describe('the CLI telling a refusal of the operator layer', () => {
  it('keeps its words; bad input is a bad command line (exit 2), the rest the data refusing (exit 1)', () => {
    const told = (error: unknown) => {
      const cli = asCliError(error);
      expect(cli).toBeInstanceOf(CliError);
      return { message: (cli as CliError).message, exitCode: (cli as CliError).exitCode };
    };
    expect(told(apiError.badRequest('not a domain name: "x"', 'domain'))).toEqual({ message: 'not a domain name: "x"', exitCode: 2 });
    expect(told(apiError.notFound('no link has the code "x"', 'code'))).toEqual({ message: 'no link has the code "x"', exitCode: 1 });
    expect(told(apiError.conflict('a person with the email a@b.c already exists'))).toEqual({ message: 'a person with the email a@b.c already exists', exitCode: 1 });
  });

  it('passes anything else on as it was thrown: no refusal, so no exit code of one', () => {
    const outage = apiError.serviceUnavailable();
    const fault = new Error('SQLITE_CORRUPT');
    expect(asCliError(outage)).toBe(outage);
    expect(asCliError(fault)).toBe(fault);
  });
});
