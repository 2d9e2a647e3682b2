/**
 * Starts the real converter (container/) as a Node HTTP service for the worker tests; the Worker
 * reaches it through CONVERTER_URL (vitest.config.ts injects `converterUrl`).
 */
import type { TestProject } from "vitest/node";
import { startConverter } from "../../container/src/server.ts";

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const converter = await startConverter({ host: "127.0.0.1", port: 0 });
  project.provide("converterUrl", converter.url);
  return () => converter.close();
}
