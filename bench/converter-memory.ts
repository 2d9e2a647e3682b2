/**
 * Memory of the converter's HTTP (parent) process per job size: starts the converter as its own
 * process (container/src/main.ts), posts merge-pdf jobs of one PDF padded with a large stream
 * (1, 50 and 95 MB, built here), and samples the parent's VmHWM (peak, reset before each job
 * through /proc/<pid>/clear_refs) and VmRSS from /proc. Growth = peak during the job − resident
 * before it. The goal is ≤ 64 MB at 95 MB: inputs stream to disk and outputs from it.
 * Run: `npx node bench/converter-memory.ts` (Linux).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CONVERTER_JOB_PATH, CONVERTER_SECRET_HEADER } from "../contract/index.ts";
import { jobBody } from "../tests/container/http.ts";
import { paddedPdf } from "../tests/support/padded-pdf.ts";

const MB = 1024 * 1024;
const SIZES_MB = [1, 50, 95];
const ROOT = join(import.meta.dirname, "..");

function status(pid: number): { rssMb: number; hwmMb: number } {
  const text = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(text)?.[1] ?? 0);
  return { rssMb: kb("VmRSS") / 1024, hwmMb: kb("VmHWM") / 1024 };
}

async function startConverter(secret: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [join(ROOT, "container/src/main.ts")], {
    env: { ...process.env, CONVERTER_SECRET: secret, PORT: "0", MAX_CONCURRENT_JOBS: "1" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let seen = "";
    child.stdout?.setEncoding("utf8");
    child.stdout?.on("data", (text: string) => {
      seen += text;
      const match = /listening on (http:\/\/\S+)/.exec(seen);
      if (match?.[1]) resolve(match[1]);
    });
    child.once("exit", (code) => reject(new Error(`converter exited with ${code}`)));
  });
  return { child, url };
}

const secret = randomBytes(32).toString("hex");
const { child, url } = await startConverter(secret);
const pid = child.pid as number;
try {
  console.log("# Converter parent memory per merge-pdf job (one padded PDF)");
  const idle = status(pid).rssMb;
  console.log(`parent resident when idle: ${idle.toFixed(1)} MB`);
  console.log(
    "| input | request body | parent RSS before | parent peak (VmHWM) | growth in job | peak − idle | output | time |",
  );
  console.log("|---|---|---|---|---|---|---|---|");
  for (const sizeMb of SIZES_MB) {
    const body = await jobBody({}, [
      { name: "padded.pdf", kind: "pdf", bytes: paddedPdf(sizeMb * MB - 1024, "noise") },
    ]);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const before = status(pid).rssMb;
    writeFileSync(`/proc/${pid}/clear_refs`, "5");
    let peak = 0;
    const sampler = setInterval(() => {
      peak = Math.max(peak, status(pid).hwmMb, status(pid).rssMb);
    }, 10);
    const started = performance.now();
    const response = await fetch(`${url}${CONVERTER_JOB_PATH}/merge-pdf`, {
      method: "POST",
      headers: { [CONVERTER_SECRET_HEADER]: secret },
      body,
    });
    const output = new Uint8Array(await response.arrayBuffer());
    const ms = performance.now() - started;
    clearInterval(sampler);
    const after = status(pid);
    peak = Math.max(peak, after.hwmMb, after.rssMb);
    if (
      response.status !== 200 ||
      !new TextDecoder().decode(output.subarray(-200)).includes('"type":"done"')
    ) {
      throw new Error(
        `job of ${sizeMb} MB failed: ${response.status} ${new TextDecoder().decode(output.subarray(0, 300))}`,
      );
    }
    const f = (value: number) => `${value.toFixed(1)} MB`;
    console.log(
      `| ${sizeMb} MB | ${f(body.length / MB)} | ${f(before)} | ${f(peak)} | ${f(peak - before)} | ${f(peak - idle)} | ${f(output.length / MB)} | ${(ms / 1000).toFixed(2)} s |`,
    );
  }
} finally {
  child.kill("SIGTERM");
}
