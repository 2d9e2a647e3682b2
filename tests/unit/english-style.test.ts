/**
 * The English strings (locales/en and every tool's en.json) are in US English and sentence case
 * (issue 30 §8), except the labels the product spec gives word for word in Title Case.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");

/** Labels the spec gives in Title Case (../shared/spec/product-spec.md), and names. */
const SPEC_LABELS = new Set([
  "PDF Image Tools",
  "Try For Free",
  "Explore Features",
  "Image Tools",
  "PDF Tools",
  "Other Tools",
  "Compression Complete",
  "Free Tool Access",
  "Continue to Tool",
  "Back to All Posts",
  'Posts Tagged "{{tag}}"',
  "Last Updated {{date}}",
  "General Inquiry",
  "Technical Support",
  "Billing Question",
  "Partnership Opportunity",
  "US Letter",
]);

/** Words spelled the British way, with their US spelling. */
const BRITISH =
  /\b(\w+(?<!advert|adv|compr|desp|dev|exerc|otherw|prom|prec|pra|r|rev|superv|surpr|w|n|conc|prem|franch|enterpr|expert|paradi|merchand|chast|exc|inc|circumc|comprom|disgu|bru|cru|appr|ar)is(?:e|es|ed|ing|ation|ations)|\w*colour\w*|\w*behaviour\w*|centre[sd]?|favourite\w*|licence|cancell(?:ed|ing)|labell(?:ed|ing)|travell(?:ed|ing)|modell(?:ed|ing)|grey|analys(?:e|ed|ing)|catalogue|whilst|amongst|judgement)\b/i;

function englishStrings(): { file: string; key: string; value: string }[] {
  const files = [
    join(ROOT, "locales/en/common.json"),
    ...readdirSync(join(ROOT, "tools")).map((id) => join(ROOT, "tools", id, "locales/en.json")),
  ].filter((file) => {
    try {
      readFileSync(file);
      return true;
    } catch {
      return false;
    }
  });
  const found: { file: string; key: string; value: string }[] = [];
  const walk = (file: string, node: unknown, key: string) => {
    if (typeof node === "string") found.push({ file: file.slice(ROOT.length + 1), key, value: node });
    else if (node && typeof node === "object")
      for (const [name, child] of Object.entries(node)) walk(file, child, key ? `${key}.${name}` : name);
  };
  for (const file of files) walk(file, JSON.parse(readFileSync(file, "utf8")), "");
  return found;
}

/** Names, capitalized in any sentence. */
const NAMES = new Set(["Twitter", "Facebook", "LinkedIn", "Premium", "Excel", "Word", "Markdown", "WebP"]);

/** A short label whose every word of four letters or more starts with a capital ("Back to Blog"). */
function titleCase(value: string): boolean {
  const words = value
    .replace(/\{\{[^}]+\}\}/g, "")
    .split(/\s+/)
    .filter(Boolean);
  if (words.length < 2 || words.length > 6 || /[.:;!?]\s/.test(value)) return false;
  const long = words.slice(1).filter((word) => /^[A-Za-z]{4,}$/.test(word) && !NAMES.has(word));
  return long.length > 0 && long.every((word) => /^[A-Z][a-z]/.test(word));
}

describe("English strings", () => {
  const strings = englishStrings();

  it("use US spelling", () => {
    expect(
      strings.filter(({ value }) => BRITISH.test(value)).map((s) => `${s.file} ${s.key}: ${s.value}`),
    ).toEqual([]);
  });

  it("use sentence case, apart from the spec's own labels", () => {
    expect(
      strings
        .filter(({ value }) => titleCase(value) && !SPEC_LABELS.has(value))
        .map((s) => `${s.file} ${s.key}: ${s.value}`),
    ).toEqual([]);
  });
});
