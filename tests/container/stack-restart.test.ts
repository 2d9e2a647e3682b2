import { spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { CONVERTER_HEALTH_PATH } from "../../contract/index.ts";
import { type Supervised, supervise, supervisedConverter } from "../../scripts/stack.ts";
import { TEST_SECRET } from "./http.ts";

const supervisors: Supervised[] = [];

afterEach(async () => {
  await Promise.all(supervisors.splice(0).map((supervisor) => supervisor.stop()));
});

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(1000) })).ok;
  } catch {
    return false;
  }
}

async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not reached in time");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("npm start's supervision", () => {
  it("restarts any supervised process (wrangler dev too) after it dies, logging it, and not after stop()", async () => {
    const logged: string[] = [];
    const original = console.error;
    console.error = (line: string) => logged.push(line);
    try {
      const supervisor = supervise("sleeper", () =>
        spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore", detached: true }),
      );
      supervisors.push(supervisor);
      const first = supervisor.child.pid;
      process.kill(first as number, "SIGKILL");
      await until(async () => supervisor.child.pid !== first, 10_000);
      expect(logged.some((line) => /sleeper exited \(SIGKILL\); restarting in 500 ms/.test(line))).toBe(true);
      const second = supervisor.child;
      await supervisor.stop();
      expect(second.exitCode !== null || second.signalCode !== null).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 800));
      expect(supervisor.child.pid).toBe(second.pid);
    } finally {
      console.error = original;
    }
  });

  it("restarts the converter after kill -9, and not after stop()", async () => {
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const env = {
      ...process.env,
      HOST: "127.0.0.1",
      PORT: String(port),
      CONVERTER_SECRET: TEST_SECRET,
      MAX_CONCURRENT_JOBS: "1",
    };
    const supervisor = supervisedConverter(env, "ignore");
    supervisors.push(supervisor);
    const health = `http://127.0.0.1:${port}${CONVERTER_HEALTH_PATH}`;
    await until(() => answers(health), 60_000);
    const first = supervisor.child.pid;
    process.kill(first as number, "SIGKILL");
    await until(async () => supervisor.child.pid !== first && (await answers(health)), 60_000);
    await supervisor.stop();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await answers(health)).toBe(false);
  });
});
