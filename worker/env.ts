import type { ContactInbox } from "./contact/contact-inbox.ts";
import type { ConverterContainer } from "./converter-container.ts";
import type { TaskObject } from "./task-object.ts";

/** Bindings of the Worker (wrangler.toml), shared by the app, the task object and the converter client. */
export interface Env {
  /** Uploads and results, under `tasks/{taskId}/`. */
  FILES: R2Bucket;
  /** One task object per task id (`idFromName(taskId)`). */
  TASKS: DurableObjectNamespace<TaskObject>;
  /** The converter container (production); unused when CONVERTER_URL is set. */
  CONVERTER: DurableObjectNamespace<ConverterContainer>;
  /** The built SPA. */
  ASSETS: Fetcher;
  /** Per-client limit on task creation (`[[ratelimits]]`). */
  TASK_RATE_LIMIT: RateLimit;
  /** Per-client limit on status, download and delete requests (`[[ratelimits]]`). */
  TASK_READ_RATE_LIMIT: RateLimit;
  /** Minutes after which a task's files and state are deleted. */
  RETENTION_MINUTES: string;
  /**
   * Base address of a public blog content repository (metadata.json, posts/, images/ below it);
   * empty or unset: the copy of content/blog deployed with the assets.
   */
  BLOG_CONTENT_BASE?: string;
  /** Local development and tests only: the converter as a plain HTTP service. */
  CONVERTER_URL?: string;
  /** Shared secret the converter requires in X-Converter-Secret (a secret; `.dev.vars` locally). */
  CONVERTER_SECRET: string;
  /** Key of the CSRF token signatures (a secret; `.dev.vars` locally). */
  CSRF_SECRET: string;
  /** The contact messages (one object, SQLite storage). */
  CONTACT_INBOX: DurableObjectNamespace<ContactInbox>;
  /** Per-client limit on contact messages (`[[ratelimits]]`). */
  CONTACT_RATE_LIMIT: RateLimit;
  /** Bearer token of the admin routes (a secret); unset, they answer 404. */
  ADMIN_TOKEN?: string;
  /** Optional `[[send_email]]` binding that forwards each contact message. */
  CONTACT_EMAIL?: SendEmail;
  /** Where contact messages are forwarded (a verified Email Routing destination); unset, none is. */
  CONTACT_FORWARD_TO?: string;
  /** Sender of forwarded messages, on a domain with Email Routing. */
  CONTACT_FORWARD_FROM?: string;
}

/** Hono environment of the API. */
export interface AppEnv {
  Bindings: Env;
  Variables: { requestId: string };
}
