import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { ERROR_CODES, LANGUAGE_CODES, TOOL_IDS } from "../../contract/index.ts";

const ROOT = resolve(import.meta.dirname, "../..");
type Tree = { [key: string]: string | Tree };

/**
 * Every i18next namespace: the shared strings (locales/<lang>/common.json) and each tool folder's
 * own (tools/<id>/locales/<lang>.json), found from the folders themselves.
 */
const NAMESPACES: { name: string; file: (lang: string) => string }[] = [
  { name: "common", file: (lang) => join(ROOT, "locales", lang, "common.json") },
  ...readdirSync(join(ROOT, "tools"), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => ({
      name: entry.name,
      file: (lang: string) => join(ROOT, "tools", entry.name, "locales", `${lang}.json`),
    })),
];

function load(namespace: string, lang: string): Tree {
  const entry = NAMESPACES.find((n) => n.name === namespace);
  if (entry === undefined) throw new Error(`no namespace ${namespace}`);
  return JSON.parse(readFileSync(entry.file(lang), "utf8")) as Tree;
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

const english = new Map(NAMESPACES.map((n) => [n.name, flatten(load(n.name, "en"))]));
const common = english.get("common") ?? new Map<string, string>();

describe("English locale (source of truth)", () => {
  it("has a message for every error code", () => {
    for (const code of ERROR_CODES) expect(common.get(`errors.codes.${code}`), code).toBeTruthy();
  });

  it("has a namespace for every tool, which names and describes it", () => {
    expect(
      NAMESPACES.map((n) => n.name)
        .filter((n) => n !== "common")
        .sort(),
    ).toEqual([...TOOL_IDS].sort());
    for (const id of TOOL_IDS) {
      expect(english.get(id)?.get("name"), id).toBeTruthy();
      expect(english.get(id)?.get("description"), id).toBeTruthy();
    }
  });

  it("holds the spec's messages verbatim", () => {
    const values = new Set(common.values());
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
  it.each(NAMESPACES.map((n) => n.name))(
    "has the %s namespace with every English key, no other, placeholders kept",
    (name) => {
      const entry = NAMESPACES.find((n) => n.name === name);
      expect(entry && existsSync(entry.file(lang))).toBe(true);
      const source = english.get(name) ?? new Map<string, string>();
      const translated = flatten(load(name, lang));
      const missing = [...source.keys()].filter((key) => !translated.get(key)?.trim());
      const extra = [...translated.keys()].filter((key) => !source.has(key));
      expect(missing, `missing in ${lang}`).toEqual([]);
      expect(extra, `unknown in ${lang}`).toEqual([]);
      for (const [key, text] of source) {
        expect(placeholders(translated.get(key) ?? ""), `${lang}: ${key}`).toEqual(placeholders(text));
      }
    },
  );

  it("is really translated (not a copy of English)", () => {
    const pairs = NAMESPACES.flatMap((n) => {
      const translated = flatten(load(n.name, lang));
      return [...(english.get(n.name) ?? [])].map(([key, text]) => [text, translated.get(key)] as const);
    });
    const long = pairs.filter(([text]) => text.length > 25);
    const same = long.filter(([text, translation]) => translation === text);
    // Brand names and URLs may stay; anything beyond a few percent is an untranslated copy.
    expect(same.length / long.length).toBeLessThan(0.05);
  });
});
