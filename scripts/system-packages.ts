/**
 * System programs the converter needs beside Node: Tesseract 5 and its models (PDF OCR and PDF to
 * Word's OCR run `tesseract`, engines/ocr/tesseract.ts) and qpdf (it opens, with the empty
 * password, the encrypted PDFs MuPDF cannot decrypt: engines/pdf/open-without-password.ts). `npm start` and
 * `npm test` install them
 * from apt when missing, as root; otherwise they stop with the command to run. The converter's
 * image (container/Dockerfile) installs the same packages.
 */
import { spawnSync } from "node:child_process";
import { TESSERACT_MODELS } from "../engines/ocr/tesseract.ts";
import { run } from "./stack.ts";

/** Models recognition uses: one per site language, and orientation and script detection. */
const MODELS = [...new Set(Object.values(TESSERACT_MODELS)), "osd"];
/** Debian's packages for them (each model is `tesseract-ocr-<model>`). */
export const TESSERACT_PACKAGES = ["tesseract-ocr", ...MODELS.map((model) => `tesseract-ocr-${model}`)];
/** Every apt package the converter runs: Tesseract's and qpdf. */
export const SYSTEM_PACKAGES = [...TESSERACT_PACKAGES, "qpdf"];

/** Models `tesseract --list-langs` does not list (all of them when Tesseract is missing). */
function missingModels(): string[] {
  const listed = spawnSync("tesseract", ["--list-langs"], { encoding: "utf8" });
  if (listed.status !== 0) return MODELS;
  const installed = new Set(listed.stdout.split("\n").map((line) => line.trim()));
  return MODELS.filter((model) => !installed.has(model));
}

export async function ensureSystemPackages(): Promise<void> {
  const missing = missingModels();
  if (spawnSync("qpdf", ["--version"]).status !== 0) missing.push("qpdf");
  if (missing.length === 0) return;
  const command = `apt-get install -y ${SYSTEM_PACKAGES.join(" ")}`;
  if (process.getuid?.() !== 0)
    throw new Error(`System packages missing (${missing.join(", ")}): run "sudo ${command}"`);
  await run("apt-get", ["update", "-qq"]);
  await run("apt-get", ["install", "-y", "-qq", "--no-install-recommends", ...SYSTEM_PACKAGES], {
    ...process.env,
    DEBIAN_FRONTEND: "noninteractive",
  });
}
