/**
 * The local site's Worker runs on Miniflare's API with workerd itself on the public port
 * (scripts/worker-runtime.ts), not behind `wrangler dev`'s proxy: a second workerd whose connections
 * to the Worker's runtime were lost under 64 concurrent uploads (plain-text 500 "Network connection
 * lost") and whose memory grew ~40 MB per burst round (bench:load).
 */
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, inject, it } from "vitest";
import { listeningPorts } from "../../bench/inspector.ts";
import { API_PATHS } from "../../contract/index.ts";

const siteUrl = inject("siteUrl");

/** The processes listening on `port` on this machine, with their command line and parent's. */
function listeners(port: number): { comm: string; parentCmdline: string }[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((entry) => {
      const pid = Number(entry);
      try {
        if (!listeningPorts(pid).includes(port)) return [];
        const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
        const parent = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1];
        return [
          {
            comm: readFileSync(`/proc/${pid}/comm`, "utf8").trim(),
            parentCmdline: readFileSync(`/proc/${parent}/cmdline`, "utf8").replaceAll("\0", " "),
          },
        ];
      } catch {
        // gone meanwhile, or not ours to read
        return [];
      }
    });
}

describe("the local Worker runtime", () => {
  it("is workerd itself on the site's port, started through Miniflare's API, with no proxy in front", async () => {
    const found = listeners(Number(new URL(siteUrl).port));
    expect(found).toHaveLength(1);
    expect(found[0]?.comm).toBe("workerd");
    expect(found[0]?.parentCmdline).toContain("scripts/worker-runtime.ts");
    // The Worker answers the API there, with the secrets of .dev.vars (the CSRF token needs its key).
    const response = await fetch(new URL(API_PATHS.csrfToken, siteUrl));
    expect(response.status).toBe(200);
    expect(((await response.json()) as { csrf_token?: string }).csrf_token).toMatch(/\./);
  });
});
