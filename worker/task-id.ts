import { TASK_ID_PATTERN } from "../contract/index.ts";
import { toBase64url } from "./base64url.ts";

/** 128 random bits as base64url: 22 characters matching the contract's TASK_ID_PATTERN. */
export function newTaskId(): string {
  return toBase64url(crypto.getRandomValues(new Uint8Array(16)));
}

export function isTaskId(value: string): boolean {
  return TASK_ID_PATTERN.test(value);
}
