/** Entry point of the edge application (wrangler.toml `main`): the API, the SPA and the Durable Objects. */
import { app } from "./app.ts";

export { ContactInbox } from "./contact/contact-inbox.ts";
export { ConverterContainer } from "./converter-container.ts";
export { TaskObject } from "./task-object.ts";

export default app;
