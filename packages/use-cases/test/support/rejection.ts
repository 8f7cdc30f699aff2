import { UseCaseError } from '../../src/errors.js';

/** The `UseCaseError` a promise rejects with; throws when it resolves or rejects otherwise. */
export async function rejection(promise: Promise<unknown>): Promise<UseCaseError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof UseCaseError)) throw new Error(`expected a UseCaseError, got ${error}`);
  return error;
}
