/**
 * Starts the real converter (container/) as a Node HTTP service for the worker tests; the Worker
 * reaches it through CONVERTER_URL with CONVERTER_SECRET (vitest.config.ts injects both).
 */
import type { TestProject } from "vitest/node";
import { startConverter } from "../../container/src/server.ts";

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const secret = Array.from(crypto.getRandomValues(new Uint8Array(32)), (b) =>
    b.toString(16).padStart(2, "0"),
  ).join("");
  const converter = await startConverter({ port: 0, secret });
  project.provide("converterUrl", converter.url);
  project.provide("converterSecret", secret);
  return () => converter.close();
}
