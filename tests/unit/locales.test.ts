import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { ERROR_CODES, LANGUAGE_CODES, TOOL_IDS } from "../../contract/index.ts";

const LOCALES = resolve(import.meta.dirname, "../../locales");
type Tree = { [key: string]: string | Tree };

function load(lang: string): Tree {
  return JSON.parse(readFileSync(join(LOCALES, lang, "common.json"), "utf8")) as Tree;
}

/** Flattens a locale tree to dotted keys → strings. */
function flatten(tree: Tree, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") out.set(path, value);
    else for (const [k, v] of flatten(value, path)) out.set(k, v);
  }
  return out;
}

/** Interpolation placeholders such as {{count}} must survive translation unchanged. */
const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

const english = flatten(load("en"));

describe("English locale (source of truth)", () => {
  it("has a message for every error code", () => {
    for (const code of ERROR_CODES) expect(english.get(`errors.codes.${code}`), code).toBeTruthy();
  });

  it("names and describes every tool", () => {
    for (const id of TOOL_IDS) {
      expect(english.get(`tools.${id}.name`), id).toBeTruthy();
      expect(english.get(`tools.${id}.description`), id).toBeTruthy();
    }
  });

  it("holds the spec's messages verbatim", () => {
    const values = new Set(english.values());
    for (const message of [
      "Failed to merge PDFs",
      "Image conversion failed",
      "Failed to check task status",
      "Task failed",
      "Only PDF files are supported",
      "No file selected",
      "An unexpected error occurred",
    ]) {
      expect(values.has(message), message).toBe(true);
    }
  });
});

describe.each(LANGUAGE_CODES.filter((lang) => lang !== "en"))("locale %s", (lang) => {
  const file = join(LOCALES, lang, "common.json");

  it("exists", () => {
    expect(existsSync(file)).toBe(true);
  });

  it("has every English key, no other key, and keeps placeholders", () => {
    const translated = flatten(load(lang));
    const missing = [...english.keys()].filter((key) => !translated.get(key)?.trim());
    const extra = [...translated.keys()].filter((key) => !english.has(key));
    expect(missing, `missing in ${lang}`).toEqual([]);
    expect(extra, `unknown in ${lang}`).toEqual([]);
    for (const [key, text] of english) {
      expect(placeholders(translated.get(key) ?? ""), `${lang}: ${key}`).toEqual(placeholders(text));
    }
  });

  it("is really translated (not a copy of English)", () => {
    const translated = flatten(load(lang));
    const long = [...english].filter(([, text]) => text.length > 25);
    const same = long.filter(([key, text]) => translated.get(key) === text);
    // Brand names and URLs may stay; anything beyond a few percent is an untranslated copy.
    expect(same.length / long.length).toBeLessThan(0.05);
  });
});
