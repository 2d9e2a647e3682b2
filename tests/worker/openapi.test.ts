import { describe, expect, it } from "vitest";
import { adminMessagePath, CONTACT_PATHS } from "../../contract/contact.ts";
import {
  API_PATHS,
  downloadPath,
  HEALTH_PATH,
  statusPath,
  TOOL_IDS,
  TOOLS,
  taskPath,
  taskTypeSchema,
} from "../../contract/index.ts";
import { app } from "../../worker/app.ts";
import { ApiClient } from "./api-client.ts";

type Json = Record<string, unknown>;

/** Every `$ref` in the document, found by walking it. */
function refs(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) refs(item, found);
  else if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      if (key === "$ref" && typeof item === "string") found.push(item);
      else refs(item, found);
    }
  }
  return found;
}

describe("OpenAPI document", () => {
  it("is OpenAPI 3.1 and lists every API path with its operations", async () => {
    const response = await new ApiClient().fetch(API_PATHS.openapi);
    expect(response.status).toBe(200);
    const doc = (await response.json()) as Json;
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    const paths = doc.paths as Record<string, Record<string, Json>>;
    const expected = [
      ...Object.values(API_PATHS),
      HEALTH_PATH,
      ...Object.values(CONTACT_PATHS),
      adminMessagePath("{id}"),
      ...TOOL_IDS.map((id) => TOOLS[id].endpoint.path),
      ...taskTypeSchema.options.flatMap((type) => [
        statusPath(type, "{taskId}"),
        downloadPath(type, "{taskId}"),
        taskPath(type, "{taskId}"),
      ]),
    ];
    expect(Object.keys(paths).sort()).toEqual([...new Set(expected)].sort());
    for (const [path, operations] of Object.entries(paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        expect(["get", "post", "delete"], `${method} ${path}`).toContain(method);
        expect(Object.keys(operation.responses as Json).length, `${method} ${path}`).toBeGreaterThan(0);
        const templated = path.includes("{taskId}");
        const params = (operation.parameters as Json[] | undefined) ?? [];
        expect(
          params.some((p) => p.in === "path" && p.name === "taskId"),
          `${method} ${path}`,
        ).toBe(templated);
      }
    }
    expect(paths[TOOLS["merge-pdf"].endpoint.path]?.post?.requestBody).toBeDefined();
  });

  it("documents exactly the routes the app serves", async () => {
    const doc = (await (await new ApiClient().fetch(API_PATHS.openapi)).json()) as Json;
    const documented = Object.entries(doc.paths as Record<string, Json>).flatMap(([path, operations]) =>
      Object.keys(operations).map(
        (method) => `${method.toUpperCase()} ${path.replaceAll(/\{(\w+)\}/g, ":$1")}`,
      ),
    );
    const served = app.routes
      .filter((route) => route.path.startsWith("/api/") && route.path !== "/api/*" && route.method !== "ALL")
      .map((route) => `${route.method} ${route.path}`);
    expect([...new Set(served)].sort()).toEqual([...new Set(documented)].sort());
  });

  it("resolves every $ref to a component schema", async () => {
    const doc = (await (await new ApiClient().fetch(API_PATHS.openapi)).json()) as Json;
    const schemas = (doc.components as Json).schemas as Json;
    const all = refs(doc);
    expect(all.length).toBeGreaterThan(0);
    for (const ref of all) {
      expect(ref).toMatch(/^#\/components\/schemas\//);
      expect(schemas[ref.slice("#/components/schemas/".length)], ref).toBeDefined();
    }
  });
});
