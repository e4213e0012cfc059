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
