import { expect } from "vitest";
import { AppError } from "../../contract/index.ts";

/** The AppError a promise rejects with (the test fails when it resolves or throws anything else). */
export async function failure(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}
