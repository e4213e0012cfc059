import { expect } from 'vitest';
import { ApiError, type ErrorCode } from '../../src/errors.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import { storeUnderTest, type StoreUnderTest } from '../store/contract/fixtures.js';

/** A fresh SQLite store (in memory) for each test of the describe() it is called in, with the contract's shortcuts. */
export function operatorStore(): StoreUnderTest {
  return storeUnderTest(async (random) => {
    const store = openSqliteStore(':memory:', random);
    return { store, close: () => store.close() };
  });
}

/** A refusal as the operator layer throws it: an ApiError, with the words the CLI prints and the pages show. */
export interface Refusal {
  status: number;
  code: ErrorCode;
  message: string;
  field: string | null;
}

/** What the call was refused with; fails the test when it resolved or threw anything but an ApiError. */
export async function refusal(call: Promise<unknown>): Promise<Refusal> {
  const error: unknown = await call.then(
    () => new Error('expected a refusal, but the call succeeded'),
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ApiError);
  const { status, code, message, field } = error as ApiError;
  return { status, code, message, field };
}
