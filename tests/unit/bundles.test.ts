/**
 * What each runtime's bundle holds: the Worker (built by `wrangler deploy --dry-run`, which also
 * checks bindings and migrations offline) and the client (the chunk list the Vite build writes).
 * A container engine (tools/<id>/container.ts, MuPDF, sharp) must never reach either.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOOL_IDS, TOOLS } from "../../contract/index.ts";
import { buildClientIfMissing, offlineWranglerEnv } from "../../scripts/stack.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const CONTAINER_ONLY = [
  /^tools\/[^/]+\/container\.ts$/,
  /node_modules\/mupdf\//,
  /node_modules\/sharp\//,
  /node_modules\/@img\//,
];
const node = process.execPath;

describe("Worker bundle (wrangler deploy --dry-run)", () => {
  const outdir = mkdtempSync(join(tmpdir(), "worker-bundle-"));
  let output = "";
  let inputs: string[] = [];

  beforeAll(() => {
    buildClientIfMissing();
    const run = spawnSync(
      node,
      [
        join(ROOT, "node_modules/wrangler/bin/wrangler.js"),
        "deploy",
        "--dry-run",
        // The converter image needs a Docker engine to build; the Worker is checked without it.
        "--containers-rollout=none",
        "--outdir",
        outdir,
        "--metafile",
        join(outdir, "meta.json"),
      ],
      { cwd: ROOT, env: { ...offlineWranglerEnv(), WRANGLER_LOG: "log" }, encoding: "utf8" },
    );
    // wrangler prints part of its report on stderr.
    output = `${run.stdout}${run.stderr}`;
    if (run.status !== 0) throw new Error(`wrangler deploy --dry-run failed:\n${output}`);
    const meta = JSON.parse(readFileSync(join(outdir, "meta.json"), "utf8")) as {
      inputs: Record<string, unknown>;
    };
    inputs = Object.keys(meta.inputs);
  }, 120_000);

  afterAll(() => rmSync(outdir, { recursive: true, force: true }));

  it("builds offline with every binding and stays under the Workers Free size limit", () => {
    expect(output).toContain("--dry-run: exiting now.");
    for (const binding of [
      "env.TASKS (TaskObject)",
      "env.FILES",
      "env.CONVERTER (ConverterContainer)",
      "env.ASSETS",
    ])
      expect(output).toContain(binding);
    const gzipKiB = Number(/gzip: ([\d.]+) KiB/.exec(output)?.[1]);
    expect(gzipKiB).toBeGreaterThan(0);
    expect(gzipKiB).toBeLessThan(3 * 1024);
  });

  it("holds every declaration and the edge engines, and no container engine", () => {
    for (const id of ["merge-pdf", "png-to-jpg"]) expect(inputs).toContain(`tools/${id}/tool.ts`);
    expect(inputs).toContain("tools/png-to-jpg/edge.ts");
    expect(inputs.filter((input) => CONTAINER_ONLY.some((pattern) => pattern.test(input)))).toEqual([]);
  });
});

describe("client bundle (vite build)", () => {
  interface Chunk {
    file: string;
    entry: boolean;
    facade: string | null;
    imports: string[];
    dynamicImports: string[];
    modules: string[];
  }
  const list = join(ROOT, "dist/client-modules.json");

  beforeAll(() => {
    buildClientIfMissing("dist/client-modules.json");
  }, 120_000);

  const chunks = () => JSON.parse(readFileSync(list, "utf8")) as Chunk[];
  const relativeModules = (chunk: Chunk) => chunk.modules.map((path) => path.replace(`${ROOT}/`, ""));

  it("runs on React 19 (react and react-dom, in the entry's first load), and holds no Preact", () => {
    const all = chunks();
    const modules = all.flatMap(relativeModules);
    expect(modules.filter((path) => /node_modules\/preact/.test(path))).toEqual([]);
    const entry = all.find((chunk) => chunk.entry);
    // The entry and what it imports, and the app it imports once the page is painted
    // (client/src/main.tsx) with what that imports.
    const byFile = (file: string) => all.find((c) => c.file === file);
    const app = (entry?.dynamicImports ?? []).map(byFile);
    const firstLoad = [entry, ...app]
      .flatMap((chunk) => (chunk ? [chunk, ...chunk.imports.map(byFile)] : []))
      .flatMap((chunk) => (chunk ? relativeModules(chunk) : []));
    expect(firstLoad.some((path) => path.startsWith("node_modules/react/"))).toBe(true);
    expect(firstLoad.some((path) => path.startsWith("node_modules/react-dom/"))).toBe(true);
    // The built code is React's own, and no served file names Preact.
    const version = JSON.parse(
      readFileSync(join(ROOT, "node_modules/react-dom/package.json"), "utf8"),
    ).version;
    expect(version).toMatch(/^19\./);
    const code = all.map((chunk) => readFileSync(join(ROOT, "dist/client", chunk.file), "utf8"));
    // react-dom's renderer announces itself to React's devtools as `reconcilerVersion: "19.x.y"`.
    expect(code.some((text) => text.includes("reconcilerVersion") && text.includes(version))).toBe(true);
    expect(code.filter((text) => /preact/i.test(text))).toEqual([]);
  });

  it("holds no engine of any runtime", () => {
    const all = chunks().flatMap(relativeModules);
    expect(all.length).toBeGreaterThan(0);
    const engines = [...CONTAINER_ONLY, /^tools\/[^/]+\/edge\.ts$/, /node_modules\/@jsquash\//];
    expect(all.filter((path) => engines.some((pattern) => pattern.test(path)))).toEqual([]);
  });

  it("keeps tool screens and tool strings out of the entry chunk (loaded with the screen)", () => {
    const entry = chunks().filter((chunk) => chunk.entry);
    expect(entry).toHaveLength(1);
    // With the app the entry imports once the page is painted (client/src/main.tsx).
    const app = chunks().filter((chunk) => entry[0]?.dynamicImports.includes(chunk.file));
    const modules = [...entry, ...app].flatMap(relativeModules);
    // Language files are fetched when a page needs them: the entry holds their addresses only.
    expect(modules.filter((path) => /^tools\/[^/]+\/(screen\.tsx|locales\/.*\.json)$/.test(path))).toEqual(
      [],
    );
    expect(modules.filter((path) => /^locales\/.*\.json$/.test(path))).toEqual([]);
    // pdf.js draws page previews on the PDF screens only: loaded on first use, never with the site.
    expect(modules.filter((path) => /node_modules\/pdfjs-dist\//.test(path))).toEqual([]);
    const screens = chunks()
      .flatMap(relativeModules)
      .filter((path) => path.endsWith("/screen.tsx"));
    const available = TOOL_IDS.filter((id) => TOOLS[id].available);
    expect(screens.sort()).toEqual(available.map((id) => `tools/${id}/screen.tsx`).sort());
  });

  it("gives a single-tool screen its own declaration only, not every tool's schemas", () => {
    const all = chunks();
    const byFile = new Map(all.map((chunk) => [chunk.file, chunk]));
    /** The source modules a screen's chunk brings, with every chunk it imports. */
    const loaded = (screen: Chunk): string[] => {
      const seen = new Set<string>();
      const visit = (file: string) => {
        if (seen.has(file)) return;
        seen.add(file);
        for (const imported of byFile.get(file)?.imports ?? []) visit(imported);
      };
      visit(screen.file);
      return [...seen].flatMap((file) => {
        const chunk = byFile.get(file);
        return chunk ? relativeModules(chunk) : [];
      });
    };
    const pdfScreens = all.filter((chunk) =>
      TOOL_IDS.some(
        (id) => TOOLS[id].category === "pdf" && chunk.facade === join(ROOT, `tools/${id}/screen.tsx`),
      ),
    );
    expect(pdfScreens.length).toBeGreaterThan(0);
    for (const screen of pdfScreens) {
      const modules = loaded(screen);
      const declarations = modules.filter((path) => /^tools\/[^/]+\/tool\.ts$/.test(path));
      // Its own, and that of a tool whose parts it borrows (PDF to Excel: PDF to JPG's page ranges).
      expect(declarations, screen.facade ?? screen.file).toContain(
        relative(ROOT, (screen.facade ?? "").replace(/screen\.tsx$/, "tool.ts")),
      );
      expect(declarations.length, screen.facade ?? screen.file).toBeLessThanOrEqual(2);
      expect(modules, screen.facade ?? screen.file).not.toContain("contract/tools.ts");
    }
  });
});
