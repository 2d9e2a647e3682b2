/**
 * The legal pages' "Last updated" day is the day their text last changed (issue 30 §9: not a
 * made-up 2023 date): each text's strings in every language are fingerprinted here beside the day
 * `LEGAL_UPDATED` gives. Changing a text fails this test until both the day and the fingerprint are
 * brought up to date.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { LEGAL_UPDATED } from "../../client/src/features/legal/legal-sections.ts";
import { LANGUAGE_CODES } from "../../contract/languages.ts";

const ROOT = resolve(import.meta.dirname, "../..");

/** The text as it stood on the day `LEGAL_UPDATED` names. */
const FINGERPRINTS = {
  privacy: "79286523162aa45aff3f8979c41b3842a2b4abeef3d326a54eec6d16ee9012be",
  terms: "d9829e93888714081476323b1c4f96fa55600ac53d6d7e8eda46d69b341dd86e",
} as const;

function fingerprint(page: keyof typeof FINGERPRINTS): string {
  const hash = createHash("sha256");
  for (const language of LANGUAGE_CODES) {
    const common = JSON.parse(readFileSync(join(ROOT, "locales", language, "common.json"), "utf8"));
    hash.update(JSON.stringify(common.pages[page]));
  }
  return hash.digest("hex");
}

describe("legal texts' last-updated day", () => {
  it.each(Object.keys(FINGERPRINTS) as (keyof typeof FINGERPRINTS)[])(
    "%s: the text is the one of the day it names (else update LEGAL_UPDATED and the fingerprint)",
    (page) => {
      expect(fingerprint(page)).toBe(FINGERPRINTS[page]);
      expect(LEGAL_UPDATED[page]).toMatch(/^2026-\d{2}-\d{2}$/);
      expect(LEGAL_UPDATED[page] <= new Date().toISOString().slice(0, 10)).toBe(true);
    },
  );
});
