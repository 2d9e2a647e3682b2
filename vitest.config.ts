import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

/**
 * Four projects, all run by `npm test`:
 * - unit: pure code in Node (contract, locales, engines without WASM imports);
 * - container: the converter service and its engines in Node, on fixtures and ../shared/corpus;
 * - worker: the Worker inside workerd with local R2 and Durable Objects, talking to a real converter
 *   started by the project's global setup;
 * - e2e: Chromium (playwright-core) against the running site (started by scripts/test.mjs).
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          include: ["tests/unit/**/*.test.ts"],
          environment: "node",
        },
      },
      {
        test: {
          name: "container",
          include: ["tests/container/**/*.test.ts"],
          environment: "node",
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        plugins: [
          cloudflareTest(({ inject }) => ({
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: {
              bindings: {
                CONVERTER_URL: inject<string>("converterUrl"),
                CONVERTER_SECRET: inject<string>("converterSecret"),
                CSRF_SECRET: "test-only-csrf-secret-0123456789abcdef",
                RETENTION_MINUTES: "60",
              },
            },
          })),
        ],
        test: {
          name: "worker",
          include: ["tests/worker/**/*.test.ts"],
          globalSetup: ["tests/worker/global-setup.ts"],
          testTimeout: 60_000,
        },
      },
      {
        test: {
          name: "e2e",
          include: ["tests/e2e/**/*.test.ts"],
          globalSetup: ["tests/e2e/global-setup.ts"],
          environment: "node",
          testTimeout: 180_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
