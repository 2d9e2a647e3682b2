/**
 * A tool is one folder (tools/<id>/): the registries are derived from the folders, and nothing
 * outside a tool's folder names it.
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { declarationOf, isToolId, parseToolOptions, TOOL_IDS, TOOLS } from "../../contract/index.ts";
import { writeToolRegistry } from "../../scripts/tool-registry.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const TOOLS_DIR = join(ROOT, "tools");
const folders = readdirSync(TOOLS_DIR, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const has = (id: string, file: string) => existsSync(join(TOOLS_DIR, id, file));

describe("tool folders", () => {
  it("are the registry: one declared tool per folder, named by its id", () => {
    expect([...TOOL_IDS].sort()).toEqual([...folders].sort());
    for (const id of folders) {
      expect(has(id, "tool.ts"), id).toBe(true);
      expect(isToolId(id) && TOOLS[id].id, id).toBe(id);
    }
  });

  it("hold an engine and a screen exactly when the tool is available", () => {
    for (const id of TOOL_IDS) {
      const tool = declarationOf(id);
      expect(has(id, "screen.tsx"), `${id} screen`).toBe(tool.available);
      // Container tools run in the converter; edge tools at the edge, and in the converter over budget.
      expect(has(id, "container.ts"), `${id} container engine`).toBe(tool.available);
      expect(has(id, "edge.ts"), `${id} edge engine`).toBe(tool.available && tool.engine.kind === "edge");
    }
  });

  it("declare tools importing nothing but the declaration kit (no cycle through the registry)", () => {
    for (const id of folders) {
      const source = readFileSync(join(TOOLS_DIR, id, "tool.ts"), "utf8");
      const imports = [...source.matchAll(/from "([^"]+)"/g)].map((m) => m[1]);
      expect(
        imports.every((path) => path === "zod" || path === "../../contract/tool-kit.ts"),
        id,
      ).toBe(true);
    }
  });

  it("keep category orders unique, so the tools index order is defined", () => {
    for (const category of ["pdf", "image"] as const) {
      const orders = TOOL_IDS.filter((id) => TOOLS[id].category === category).map((id) => TOOLS[id].order);
      expect(new Set(orders).size).toBe(orders.length);
    }
  });
});

/** Source files outside tests, locales, benchmarks and generated registries. */
function sources(dir: string, found: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (
        ![
          "node_modules",
          "dist",
          "tests",
          "bench",
          "locales",
          "generated",
          ".wrangler",
          ".git",
          ".tmp",
        ].includes(entry.name)
      )
        sources(path, found);
    } else if (/\.(ts|tsx)$/.test(entry.name) && !entry.name.endsWith(".d.ts")) found.push(path);
  }
  return found;
}

describe("one folder per tool", () => {
  it("names each tool id (quoted) only inside its own folder", () => {
    const files = sources(ROOT).map((path) => [relative(ROOT, path), readFileSync(path, "utf8")] as const);
    // One-word ids ("ocr", "sign") are ordinary words other concepts use too (icons, home features).
    for (const id of TOOL_IDS.filter((tool) => tool.includes("-"))) {
      const quoted = new RegExp(`["'\`]${id}["'\`]`);
      const outside = files.filter(([path, text]) => quoted.test(text) && !path.startsWith(`tools/${id}/`));
      expect(
        outside.map(([path]) => path),
        id,
      ).toEqual([]);
    }
  });
});

describe("options", () => {
  it("parse form fields with the spec's defaults and accept their own output unchanged", () => {
    for (const id of TOOL_IDS) {
      // Passwords have no default (protect; unlock's is optional); every other option has one.
      const parsed = parseToolOptions(id, { password: "p" });
      expect(parsed.success, id).toBe(true);
      if (!parsed.success) continue;
      // The converter checks the typed options the Worker sends with the same schema.
      expect(parseToolOptions(id, parsed.data), id).toEqual(parsed);
    }
    const word = parseToolOptions("pdf-to-word", { ocr: "true" });
    expect(word.success && parseToolOptions("pdf-to-word", word.data)).toEqual({
      success: true,
      data: { ocr: true },
    });
  });
});

describe("adding a tool", () => {
  it("is adding a folder: every registry picks it up with no edit elsewhere", () => {
    const root = mkdtempSync(join(tmpdir(), "tool-registry-"));
    try {
      cpSync(TOOLS_DIR, join(root, "tools"), { recursive: true });
      const folder = join(root, "tools", "rotate-pdf");
      mkdirSync(join(folder, "locales"), { recursive: true });
      for (const file of ["tool.ts", "container.ts", "screen.tsx"]) writeFileSync(join(folder, file), "");
      const strings = { name: "Rotate PDF", description: "Turn pages a quarter at a time." };
      writeFileSync(join(folder, "locales/en.json"), JSON.stringify({ ...strings, angle: "Angle" }));
      cpSync(join(ROOT, "locales/en"), join(root, "locales/en"), { recursive: true });
      const before = readdirSync(root).sort();
      const folders = writeToolRegistry(root);
      expect(folders.map((f) => f.id)).toContain("rotate-pdf");
      expect(folders.find((f) => f.id === "rotate-pdf")).toEqual({
        id: "rotate-pdf",
        edge: false,
        container: true,
      });
      const read = (path: string) => readFileSync(join(root, path), "utf8");
      expect(read("contract/generated/tool-declarations.ts")).toContain(
        'from "../../tools/rotate-pdf/tool.ts"',
      );
      expect(read("engines/generated/container-engines.ts")).toContain('"rotate-pdf": rotatePdfEngine');
      expect(read("engines/generated/edge-engines.ts")).not.toContain("rotate-pdf");
      expect(read("client/src/generated/tool-locales.ts")).toContain(
        '"rotate-pdf": typeof import("../../../tools/rotate-pdf/locales/en.json")',
      );
      // The tool cards' file of each language carries its name and description (and nothing else).
      const cards = JSON.parse(read("client/src/generated/tool-cards/en.json")) as Record<string, unknown>;
      expect(cards["rotate-pdf"]).toEqual(strings);
      expect(Object.keys(cards)).toEqual(folders.map((f) => f.id));
      // Only generated registries appeared beside tools/.
      expect(readdirSync(root).sort()).toEqual([...before, "client", "contract", "engines"].sort());
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("refuses a folder whose name is not a kebab-case id", () => {
    const root = mkdtempSync(join(tmpdir(), "tool-registry-"));
    try {
      mkdirSync(join(root, "tools", "Rotate_PDF"), { recursive: true });
      writeFileSync(join(root, "tools", "Rotate_PDF", "tool.ts"), "");
      expect(() => writeToolRegistry(root)).toThrow(/kebab-case/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
