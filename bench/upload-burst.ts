/**
 * Bursts of concurrent 3.4 MB merge uploads against the real local stack (issue 29, point 5): per
 * burst, tasks that succeeded, answers that were not JSON (wrangler dev's plain-text 500 "Network
 * connection lost"), requests without an answer (connection reset), the wall time and the Worker
 * runtime's resident memory after it. Default bursts: 8, 16, 32, 64, 64 on a fresh stack.
 * Goal: every task succeeds and no answer is non-JSON, at every level.
 * Run: `npm run bench:upload-burst -- [count …]`.
 */
import { textPdf } from "../tests/container/fixtures.ts";
import { paddedPdf } from "../tests/support/padded-pdf.ts";
import { BenchClient, ErrorAnswer, mergeTwoPdfs, NonJsonAnswer, withStack } from "./api-driver.ts";
import { MB, stackProcesses, statusField } from "./stack-processes.ts";

const counts = process.argv.slice(2).map(Number);
const levels = counts.length > 0 ? counts : [8, 16, 32, 64, 64];

await withStack({ raiseLimits: true }, async (url) => {
  const pdfs = [paddedPdf(3.4 * MB), textPdf("C", 1)];
  const clients = Array.from({ length: 8 }, () => new BenchClient(url));
  console.log(
    "| concurrent | succeeded | non-JSON | no answer | other failures | wall | runtime RSS after |",
  );
  console.log("|---|---|---|---|---|---|---|");
  let failures = 0;
  for (const n of levels) {
    const started = performance.now();
    const outcomes = await Promise.allSettled(
      Array.from({ length: n }, (_, i) => mergeTwoPdfs(clients[i % clients.length] as BenchClient, pdfs)),
    );
    const wallS = (performance.now() - started) / 1000;
    const ok = outcomes.filter((o) => o.status === "fulfilled" && o.value.status.state === "SUCCESS").length;
    const reasons = outcomes.flatMap((o) => (o.status === "rejected" ? [o.reason as unknown] : []));
    const nonJson = reasons.filter((e) => e instanceof NonJsonAnswer).length;
    const noAnswer = reasons.filter((e) => !(e instanceof NonJsonAnswer || e instanceof ErrorAnswer)).length;
    const other = n - ok - nonJson - noAnswer;
    failures += n - ok;
    const rss = statusField(stackProcesses().runtime, "VmRSS") / MB;
    console.log(
      `| ${n} | ${ok}/${n} | ${nonJson} | ${noAnswer} | ${other} | ${wallS.toFixed(1)} s | ${rss.toFixed(0)} MB |`,
    );
    await new Promise((resolve) => setTimeout(resolve, 3000));
  }
  console.log(failures === 0 ? "\nGoal met." : `\nGoal not met: ${failures} failed.`);
});
