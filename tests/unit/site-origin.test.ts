import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { siteOrigin } from "../../scripts/site-origin.ts";

/** A project root holding only a wrangler.toml with the given SITE_ORIGIN. */
function rootWith(origin: string): string {
  const root = mkdtempSync(join(tmpdir(), "site-origin-"));
  writeFileSync(join(root, "wrangler.toml"), `[vars]\nSITE_ORIGIN = "${origin}"\n`);
  roots.push(root);
  return root;
}
const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

describe("siteOrigin", () => {
  it("follows PORT when the configured origin is the local one and SITE_ORIGIN is unset", () => {
    const root = rootWith("http://127.0.0.1:8787");
    expect(siteOrigin(root, { PORT: "8840" })).toBe("http://127.0.0.1:8840");
    expect(siteOrigin(rootWith("http://localhost:8787"), { PORT: "9000" })).toBe("http://localhost:9000");
    expect(siteOrigin(root, {})).toBe("http://127.0.0.1:8787");
  });

  it("keeps a deployed origin and an explicit SITE_ORIGIN whatever PORT says", () => {
    expect(siteOrigin(rootWith("https://tools.example"), { PORT: "8840" })).toBe("https://tools.example");
    const root = rootWith("http://127.0.0.1:8787");
    expect(siteOrigin(root, { PORT: "8840", SITE_ORIGIN: "http://127.0.0.1:8787" })).toBe(
      "http://127.0.0.1:8787",
    );
    expect(siteOrigin(root, { PORT: "8840", SITE_ORIGIN: "https://tools.example/" })).toBe(
      "https://tools.example",
    );
  });

  it("refuses a PORT that is not a port", () => {
    expect(() => siteOrigin(rootWith("http://127.0.0.1:8787"), { PORT: "http" })).toThrow(/PORT/);
  });
});
