import { ApiError, type ErrorCode } from '../errors.js';

/**
 * The CLI's one error type. Its message becomes the single `shortlinks: <reason>` line on stderr, so it is written
 * for the operator and never carries a stack or a secret.
 */
export class CliError extends Error {
  /** 2 for a malformed command line (like most Unix tools), 1 for a well-formed one the data refuses. */
  readonly exitCode: 1 | 2;

  constructor(message: string, exitCode: 1 | 2 = 1) {
    super(message);
    this.exitCode = exitCode;
  }
}

/** A malformed command line: unknown command or flag, missing or bad value. Exit code 2. */
export function usageError(message: string): CliError {
  return new CliError(message, 2);
}

/** A command line the data refuses: unknown email, team, token or code; a duplicate. Exit code 1. */
export function dataError(message: string): CliError {
  return new CliError(message, 1);
}

/** The exit code of each refusal of the operator layer: bad input is a bad command line, the rest the data's. */
const EXIT_CODES: Partial<Record<ErrorCode, 1 | 2>> = {
  bad_request: 2,
  not_found: 1,
  conflict: 1,
  // `domain add`: a name that is no domain is a bad command line; one refused, taken or over the limit, the data's.
  invalid_domain: 2,
  domain_refused: 1,
  domain_taken: 1,
  team_domains_full: 1,
  team_webhooks_full: 1,
  // `import`: a file that is no import of the format given is the command line's fault, as a bad flag is.
  invalid_import: 2,
};

/**
 * A refusal of the operator layer (src/operator) as the CLI tells it, in the same words; anything else (a fault,
 * the database out of reach) is returned as it was thrown.
 */
export function asCliError(error: unknown): unknown {
  if (!(error instanceof ApiError)) return error;
  const exitCode = EXIT_CODES[error.code];
  return exitCode === undefined ? error : new CliError(error.message, exitCode);
}
