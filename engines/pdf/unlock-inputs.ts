import { inputPasswordNames, type ToolDeclaration } from "../../contract/index.ts";
import type { EngineInput } from "../types.ts";
import { openPdfDocument } from "./open-pdf.ts";
import { authenticate, decryptedBytes } from "./pdf-password.ts";

/**
 * The passwords a job's options give its inputs, by position: the list's entry when set (tool-kit
 * `inputPasswords`), otherwise the one password tried on every encrypted input (`inputPassword`,
 * named `password`, or `input_password` where `password` is the one a tool sets). Only the
 * options the tool declares as opening its inputs count.
 */
export function inputPasswords(
  tool: ToolDeclaration,
  options: object,
  count: number,
): (string | undefined)[] {
  const names = new Set(inputPasswordNames(tool.options));
  const opening = Object.entries(options)
    .filter(([name]) => names.has(name))
    .map(([, value]: [string, unknown]) => value);
  const shared = opening.find((value): value is string => typeof value === "string");
  const list = opening.find((value): value is unknown[] => Array.isArray(value)) ?? [];
  return Array.from({ length: count }, (_, index) => {
    const own: unknown = list[index];
    return typeof own === "string" && own !== "" ? own : shared;
  });
}

/**
 * Every input PDF that needs a password and has one, opened with it and handed on decrypted, so
 * each PDF tool takes protected files without knowing about passwords. Other inputs pass as they
 * are; a locked one without a password still meets openPdf's PDF_ENCRYPTED, and a wrong password
 * is PDF_WRONG_PASSWORD naming the file (`file_index`).
 */
export function unlockInputs(
  inputs: readonly EngineInput[],
  passwords: readonly (string | undefined)[],
): EngineInput[] {
  return inputs.map((input, index) => {
    const password = passwords[index];
    if (input.kind !== "pdf" || password === undefined) return input;
    const pdf = openPdfDocument(input.bytes, index);
    try {
      if (!pdf.needsPassword()) return input;
      authenticate(pdf, password, index);
      return { ...input, bytes: decryptedBytes(pdf) };
    } finally {
      pdf.destroy();
    }
  });
}
