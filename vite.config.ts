import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";
import { blogContentFiles } from "./scripts/blog-content-files.ts";
import { writeToolRegistry } from "./scripts/tool-registry.ts";
import { SECURITY_HEADERS } from "./worker/security-headers.ts";

/** Static chunks and the logo are served from /static/dist/ (spec §7). */
const ASSETS_DIR = "static/dist";

/**
 * Writes `_headers` so the static files get the same security headers (and CSP) as the API.
 * Format: a path pattern, then one indented `Name: value` line per header.
 */
function securityHeadersFile(): Plugin {
  return {
    name: "security-headers-file",
    apply: "build",
    generateBundle() {
      const lines = Object.entries(SECURITY_HEADERS).map(([name, value]) => `  ${name}: ${value}`);
      this.emitFile({ type: "asset", fileName: "_headers", source: `/*\n${lines.join("\n")}\n` });
    },
  };
}

/** The registries derived from tools/ (scripts/tool-registry.ts), written before every build. */
function toolRegistry(): Plugin {
  return {
    name: "tool-registry",
    buildStart() {
      writeToolRegistry();
    },
  };
}

/**
 * Lists every chunk and its source modules in dist/client-modules.json (outside the served
 * folder), so a test can check that no container engine reaches the browser.
 */
function moduleList(): Plugin {
  return {
    name: "module-list",
    apply: "build",
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).flatMap((item) =>
        item.type === "chunk"
          ? [{ file: item.fileName, entry: item.isEntry, modules: Object.keys(item.modules) }]
          : [],
      );
      mkdirSync(fileURLToPath(new URL("./dist", import.meta.url)), { recursive: true });
      writeFileSync(
        fileURLToPath(new URL("./dist/client-modules.json", import.meta.url)),
        JSON.stringify(chunks),
      );
    },
  };
}

const LOGO_SOURCE = fileURLToPath(new URL("./client/src/assets/logo.png", import.meta.url));
const LOGO_PATH = `${ASSETS_DIR}/logo.png`;

/**
 * Serves the logo at its fixed address /static/dist/logo.png (spec §2): emitted into the build, and
 * answered by the dev server. (Kept outside a public folder because `dist/` folders are git-ignored.)
 */
function logoFile(): Plugin {
  return {
    name: "logo-file",
    configureServer(server) {
      server.middlewares.use(`/${LOGO_PATH}`, (_request, response) => {
        response.setHeader("Content-Type", "image/png");
        response.end(readFileSync(LOGO_SOURCE));
      });
    },
    generateBundle() {
      this.emitFile({ type: "asset", fileName: LOGO_PATH, source: readFileSync(LOGO_SOURCE) });
    },
  };
}

export default defineConfig({
  root: "client",
  base: "/",
  publicDir: false,
  plugins: [toolRegistry(), react(), securityHeadersFile(), logoFile(), blogContentFiles(), moduleList()],
  build: {
    outDir: "../dist/client",
    emptyOutDir: true,
    assetsDir: ASSETS_DIR,
    // Inlined assets would become data: URLs; keep every asset a file under /static/dist/.
    assetsInlineLimit: 0,
    sourcemap: false,
  },
  server: {
    proxy: {
      "/api": { target: "http://127.0.0.1:8787", changeOrigin: false },
    },
  },
  // The preview serves the build with production's headers, so CSP problems show up locally.
  preview: {
    headers: { ...SECURITY_HEADERS },
    proxy: {
      "/api": { target: "http://127.0.0.1:8787", changeOrigin: false },
    },
  },
});
