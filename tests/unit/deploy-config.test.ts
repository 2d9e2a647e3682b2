import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const read = (path: string) => readFileSync(join(ROOT, path), "utf8");

interface LifecycleRule {
  id: string;
  enabled: boolean;
  conditions: { prefix?: string };
  deleteObjectsTransition?: { condition: { type: string; maxAge?: number } };
}

/** The bucket the Worker's FILES binding uses (wrangler.toml). */
function filesBucket(): string {
  const match = /\[\[r2_buckets\]\]\s*binding\s*=\s*"FILES"\s*bucket_name\s*=\s*"([^"]+)"/.exec(
    read("wrangler.toml"),
  );
  if (match?.[1] === undefined) throw new Error("no FILES bucket in wrangler.toml");
  return match[1];
}

describe("R2 lifecycle rule (backs up the task object's own deletion)", () => {
  it("expires everything under tasks/ within one day", () => {
    const { rules } = JSON.parse(read("deploy/r2-lifecycle.json")) as { rules: LifecycleRule[] };
    const rule = rules.find((r) => r.conditions.prefix === "tasks/");
    expect(rule?.enabled).toBe(true);
    expect(rule?.deleteObjectsTransition?.condition.type).toBe("Age");
    const maxAge = rule?.deleteObjectsTransition?.condition.maxAge ?? Number.POSITIVE_INFINITY;
    expect(maxAge).toBeGreaterThan(0);
    expect(maxAge).toBeLessThanOrEqual(24 * 60 * 60);
  });

  it("is applied to the Worker's bucket by `npm run deploy`, before wrangler deploy", () => {
    const deploy =
      (JSON.parse(read("package.json")) as { scripts: Record<string, string> }).scripts.deploy ?? "";
    const steps = deploy.split("&&").map((step) => step.trim());
    const apply = steps.indexOf(
      `wrangler r2 bucket lifecycle set ${filesBucket()} --file deploy/r2-lifecycle.json --force`,
    );
    expect(apply).toBeGreaterThanOrEqual(0);
    expect(steps.indexOf("wrangler deploy")).toBeGreaterThan(apply);
  });
});

describe("converter image", () => {
  it("installs every apt package npm start and npm test install (Tesseract, qpdf)", async () => {
    const { SYSTEM_PACKAGES } = await import("../../scripts/system-packages.ts");
    const dockerfile = read("container/Dockerfile");
    for (const name of SYSTEM_PACKAGES) expect(dockerfile, name).toMatch(new RegExp(`\\s${name}(\\s|$)`));
  });
});
