import { describe, expect, it } from "vitest";
import { TOOLS } from "../../contract/index.ts";
import { ApiClient, errorOf, form } from "./api-client.ts";

describe("rate limiting of task creation", () => {
  it("answers 429 RATE_LIMITED once a client has started too many, per client", async () => {
    const client = new ApiClient();
    // Requests without a file still count: the limit is taken before the body is read.
    const empty = () => form("files", [], { note: "x" });
    const statuses: number[] = [];
    for (let i = 0; i < 200 && !statuses.includes(429); i++) {
      statuses.push((await client.send("POST", TOOLS["merge-pdf"].endpoint.path, empty())).status);
    }
    const limited = statuses.indexOf(429);
    expect(limited).toBeGreaterThan(9);
    expect(statuses.slice(0, limited).every((s) => s === 400)).toBe(true);
    const refused = await client.send("POST", TOOLS["merge-pdf"].endpoint.path, empty());
    expect(refused.status).toBe(429);
    expect((await errorOf(refused)).error.code).toBe("RATE_LIMITED");

    // Another client is not affected.
    const other = new ApiClient();
    expect((await other.send("POST", TOOLS["merge-pdf"].endpoint.path, empty())).status).toBe(400);
  });
});
