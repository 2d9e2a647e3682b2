/**
 * Routes validate with the schemas the OpenAPI document shows: every documented route's path
 * parameters and query are checked with its own `config.request` schemas before the handler runs
 * (api-routes.ts documentedParameters), and the task handlers read them with the same objects.
 */
import { describe, expect, it } from "vitest";
import {
  downloadPath,
  downloadQuerySchema,
  statusPath,
  statusQuerySchema,
  taskIdParamsSchema,
} from "../../contract/index.ts";
import { apiRoutes } from "../../worker/api-routes.ts";
import { ApiClient } from "./api-client.ts";

type Json = Record<string, unknown>;

describe("route parameters", () => {
  it("are the schemas the task handlers parse with", () => {
    const routes = apiRoutes();
    const route = (method: string, path: string) =>
      routes.find((r) => r.config.method === method && r.config.path === path)?.config.request;
    for (const type of ["pdf", "image"] as const) {
      expect(route("get", downloadPath(type, "{taskId}"))?.query).toBe(downloadQuerySchema);
      expect(route("get", statusPath(type, "{taskId}"))?.query).toBe(statusQuerySchema);
      expect(route("get", downloadPath(type, "{taskId}"))?.params).toBe(taskIdParamsSchema);
      expect(route("get", statusPath(type, "{taskId}"))?.params).toBe(taskIdParamsSchema);
    }
  });

  it("documents the download's file index as the handler takes it (0 to 9999)", async () => {
    const response = await new ApiClient().fetch("/api/openapi.json");
    const doc = (await response.json()) as { paths: Record<string, Record<string, Json>> };
    const operation = doc.paths[downloadPath("pdf", "{taskId}")]?.get;
    const file = ((operation?.parameters ?? []) as Json[]).find((p) => p.name === "file");
    expect(file?.schema).toMatchObject({ minimum: 0, maximum: 9999 });
  });

  it("refuses a query the document does not allow with BAD_REQUEST naming the field", async () => {
    const client = new ApiClient();
    const id = "not-a-task";
    for (const query of ["file=-1", "file=10000", "file=abc", "file=1.5"]) {
      const response = await client.fetch(`${downloadPath("pdf", id)}?${query}`);
      expect([query, response.status]).toEqual([query, 400]);
      const body = (await response.json()) as { error: { code: string; context?: Json } };
      expect(body.error).toMatchObject({ code: "BAD_REQUEST", context: { fields: "file" } });
    }
    const waiting = await client.fetch(`${statusPath("image", id)}?wait=soon`);
    expect(waiting.status).toBe(400);
    // Within the document, the request reaches the handler (an unknown task).
    expect((await client.fetch(`${downloadPath("pdf", id)}?file=3`)).status).toBe(404);
  });
});
