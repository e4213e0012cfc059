import { ApiError } from '../../src/errors.js';

/** The ApiError `fn` throws; fails the test when it throws nothing or something else. */
export function errorOf(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('expected an ApiError, but nothing was thrown');
}
