import { OpenAPIHono } from "@hono/zod-openapi";
import { except } from "hono/combine";
import { API_PATHS, AppError } from "../contract/index.ts";
import { apiHeaders } from "./api-headers.ts";
import { componentSchemas, registerApiRoutes } from "./api-routes.ts";
import { registerBlogContentRoute } from "./blog-content-route.ts";
import { requireCsrf } from "./csrf.ts";
import type { AppEnv } from "./env.ts";
import { onError } from "./http-errors.ts";
import { sameOriginOnly } from "./origin-guard.ts";
import { registerSitePages } from "./site-pages.ts";

/** The API (every route of api-routes.ts); anything outside /api/ is the SPA (site-pages.ts). */
export const app = new OpenAPIHono<AppEnv>();

// Admin routes authenticate with a bearer token, which no browser sends on its own: no CSRF token.
app.use("/api/*", apiHeaders, sameOriginOnly, except("/api/admin/*", requireCsrf));
registerApiRoutes(app);

let openApiDocument: unknown;
/** OpenAPI 3.1, generated from the same route objects the app serves (built once per isolate). */
app.openAPIRegistry.registerPath({
  method: "get",
  path: API_PATHS.openapi,
  summary: "This document (OpenAPI 3.1)",
  responses: {
    200: { description: "OpenAPI 3.1 document", content: { "application/json": { schema: {} } } },
  },
});
app.get(API_PATHS.openapi, (c) => {
  if (openApiDocument === undefined) {
    const document = app.getOpenAPI31Document({
      openapi: "3.1.0",
      info: {
        title: "PDF and image tools API",
        version: "1.0.0",
        license: { name: "AGPL-3.0-or-later", url: "https://www.gnu.org/licenses/agpl-3.0.html" },
      },
    });
    openApiDocument = { ...document, components: { ...document.components, schemas: componentSchemas() } };
  }
  return c.json(openApiDocument);
});
app.all("/api/*", () => {
  throw new AppError("BAD_REQUEST", "Unknown API path or method");
});
registerBlogContentRoute(app);
registerSitePages(app);

app.onError(onError);
