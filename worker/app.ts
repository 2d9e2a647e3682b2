import { Hono } from "hono";
import {
  API_PATHS,
  AppError,
  downloadPath,
  HEALTH_PATH,
  statusPath,
  taskPath,
  taskTypeSchema,
} from "../contract/index.ts";
import { apiHeaders } from "./api-headers.ts";
import { csrfTokenRoute, requireCsrf } from "./csrf.ts";
import type { AppEnv } from "./env.ts";
import { healthRoute } from "./health-route.ts";
import { onError } from "./http-errors.ts";
import { openApiRoute } from "./openapi.ts";
import { sameOriginOnly } from "./origin-guard.ts";
import { START_PATHS, startTaskRoute } from "./start-routes.ts";
import { deleteRoute, downloadRoute, statusRoute } from "./task-routes.ts";
import { validatePdfRoute } from "./validate-pdf-route.ts";

/** The API (every path from contract/endpoints.ts); anything outside /api/ is the SPA. */
export const app = new Hono<AppEnv>();

app.use("/api/*", apiHeaders, sameOriginOnly, requireCsrf);

app.get(API_PATHS.csrfToken, csrfTokenRoute);
app.get(API_PATHS.openapi, openApiRoute);
app.get(HEALTH_PATH, healthRoute);
app.post(API_PATHS.validatePdf, validatePdfRoute);
for (const path of START_PATHS) app.post(path, startTaskRoute(path));
for (const type of taskTypeSchema.options) {
  app.get(statusPath(type, ":taskId"), statusRoute(type));
  app.get(downloadPath(type, ":taskId"), downloadRoute(type));
  app.delete(downloadPath(type, ":taskId"), deleteRoute(type));
  app.delete(taskPath(type, ":taskId"), deleteRoute(type));
}
app.all("/api/*", () => {
  throw new AppError("BAD_REQUEST", "Unknown API path or method");
});
app.all("*", (c) => c.env.ASSETS.fetch(c.req.raw));

app.onError(onError);
