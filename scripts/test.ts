/**
 * `npm test`: type-checks every runtime, lints, builds the client, then runs the unit, container and
 * worker projects and finally the browser project (which starts the site itself). Prints one closing
 * line "tests: N passed, N failed".
 */
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { buildClient, ROOT, run } from "./stack.ts";
import { ensureSystemPackages } from "./system-packages.ts";
import { writeToolCatalog, writeToolRegistry } from "./tool-registry.ts";

const node = process.execPath;
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Browser tests drive Debian's Chromium; install it when missing (as root, from apt). */
async function ensureChromium(): Promise<void> {
  if (existsSync(CHROMIUM)) return;
  if (process.getuid?.() !== 0)
    throw new Error(`${CHROMIUM} is missing: run "sudo apt-get install -y chromium"`);
  await run("apt-get", ["update", "-qq"]);
  await run("apt-get", ["install", "-y", "-qq", "--no-install-recommends", "chromium"], {
    ...process.env,
    DEBIAN_FRONTEND: "noninteractive",
  });
}
const bin = (pkg: string, file: string) => join(ROOT, "node_modules", pkg, file);
const reports = join(ROOT, ".tmp/test-reports");
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  testResults: {
    name: string;
    status: string;
    message?: string;
    assertionResults: { fullName: string; status: string; failureMessages: string[] }[];
  }[];
}

async function step(name: string, action: () => Promise<void>): Promise<boolean> {
  const started = performance.now();
  console.log(`\n▶ ${name}`);
  try {
    await action();
    console.log(`✔ ${name} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
    return true;
  } catch (error) {
    console.error(`✘ ${name}: ${(error as Error).message}`);
    return false;
  }
}

function vitest(report: string, projects: string[]): Promise<void> {
  return run(node, [
    bin("vitest", "vitest.mjs"),
    "run",
    ...projects.flatMap((p) => ["--project", p]),
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${join(reports, report)}`,
  ]);
}

const started = performance.now();
const results: boolean[] = [];
results.push(
  await step("tool registries (tools/)", async () => {
    writeToolRegistry();
    await writeToolCatalog();
  }),
);
for (const project of ["contract", "worker", "container", "client"]) {
  results.push(
    await step(`typecheck ${project}`, () =>
      run(node, [bin("typescript", "bin/tsc"), "-p", `${project}/tsconfig.json`]),
    ),
  );
}
results.push(await step("lint (biome)", () => run(node, [bin("@biomejs/biome", "bin/biome"), "check", "."])));
results.push(await step("build client", buildClient));
results.push(await step("install Tesseract OCR and qpdf if missing", ensureSystemPackages));
results.push(
  await step("unit + container + worker tests", () => vitest("core.json", ["unit", "container", "worker"])),
);
results.push(await step("install Chromium if missing", ensureChromium));
results.push(await step("browser tests (Chromium)", () => vitest("e2e.json", ["e2e"])));

let passed = 0;
let failed = 0;
let skipped = 0;
const failures: string[] = [];
for (const name of ["core.json", "e2e.json"]) {
  const path = join(reports, name);
  if (!existsSync(path)) continue;
  const report = JSON.parse(readFileSync(path, "utf8")) as VitestReport;
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests;
  for (const file of report.testResults) {
    if (file.status === "failed" && file.message)
      failures.push(`✘ ${file.name.replace(`${ROOT}/`, "")}: ${file.message}`);
    for (const test of file.assertionResults.filter((t) => t.status === "failed")) {
      const message = test.failureMessages.join("\n").split("\n").slice(0, 6).join("\n    ");
      failures.push(`✘ ${file.name.replace(`${ROOT}/`, "")} > ${test.fullName}\n    ${message}`);
    }
  }
}
// Repeated at the very end, where a CI log's tail shows them.
if (failures.length > 0) console.log(`\nFailed tests:\n${failures.join("\n")}`);
const failedSteps = results.filter((ok) => !ok).length;
console.log(`\nTotal ${((performance.now() - started) / 1000).toFixed(1)} s; ${failedSteps} failed step(s).`);
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failedSteps === 0 && failed === 0 && passed > 0 ? 0 : 1);
