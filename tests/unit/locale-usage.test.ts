/**
 * Every string in the locale files is shown somewhere: each key (plural forms by their base) is
 * named in the client, a tool folder or the contract, as a quoted key or through a template such as
 * `levels.${level}.label`. A key nothing uses is a message the spec asks for that no screen shows,
 * or a leftover to delete.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
type Tree = { [key: string]: string | Tree };

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "generated" ? [] : sources(path);
    return /\.(ts|tsx)$/.test(entry.name) ? [path] : [];
  });
}

const code = ["client/src", "tools", "contract"]
  .flatMap((dir) => sources(join(ROOT, dir)))
  .map((file) => readFileSync(file, "utf8"))
  .join("\n");

/** Template literals with a fixed part (`levels.${x}.label`) as patterns over whole keys. */
const templates = [...code.matchAll(/`([^`\n]*\$\{[^`\n]*)`/g)].flatMap(([, body = ""]) => {
  const fixed = body.replace(/\$\{[^}]*\}/g, "");
  if (!/[a-zA-Z]{2}/.test(fixed) || /[\s/]/.test(fixed)) return [];
  const parts = body.split(/\$\{[^}]*\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return [new RegExp(`^(?:[a-z-]+:)?${parts.join("[^\"'`\\s]+")}$`)];
});

function keys(tree: Tree, prefix = ""): string[] {
  return Object.entries(tree).flatMap(([key, value]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    return typeof value === "string" ? [path] : keys(value, path);
  });
}

function used(namespace: string, key: string): boolean {
  const base = key.replace(/_(zero|one|two|few|many|other)$/, "");
  const quoted = ['"', "'", "`"].some(
    (quote) => code.includes(`${quote}${base}${quote}`) || code.includes(`:${base}${quote}`),
  );
  return quoted || templates.some((pattern) => pattern.test(base) || pattern.test(`${namespace}:${base}`));
}

const namespaces: [string, string][] = [
  ["common", join(ROOT, "locales/en/common.json")],
  ...readdirSync(join(ROOT, "tools")).map((id): [string, string] => [
    id,
    join(ROOT, "tools", id, "locales/en.json"),
  ]),
];

describe("locale strings", () => {
  it("are all used by some screen (English holds the same keys as every language)", () => {
    const unused = namespaces.flatMap(([namespace, file]) =>
      keys(JSON.parse(readFileSync(file, "utf8")) as Tree)
        .filter((key) => !used(namespace, key))
        .map((key) => `${namespace}:${key}`),
    );
    expect(unused).toEqual([]);
  });

  it("would notice a key nothing names", () => {
    expect(used("common", "errors.noFile")).toBe(true);
    // Keys reached only through a template (`errors.codes.${code}`) count as used by it.
    expect(used("common", "fileList.thisKeyIsNamedNowhere")).toBe(false);
    expect(used("merge-pdf", "thisKeyIsNamedNowhere")).toBe(false);
  });
});
