/** Entry point of the edge application (wrangler.toml `main`): the API, the SPA and the Durable Objects. */
import { app } from "./app.ts";
import type { Env } from "./env.ts";
import { guardedFetch } from "./http-errors.ts";
import { collectingWhenIdle } from "./idle-collection.ts";

export { ContactInbox } from "./contact/contact-inbox.ts";
export { ConverterContainer } from "./converter-container.ts";
export { TaskObject } from "./task-object.ts";

export default {
  fetch: collectingWhenIdle(guardedFetch<Env>((request, env, ctx) => app.fetch(request, env, ctx))),
};
