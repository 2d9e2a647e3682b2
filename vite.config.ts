import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin, type UserConfig } from "vite";
import { blogContentFiles } from "./scripts/blog-content-files.ts";
import { writeLanguageNameFonts } from "./scripts/language-name-fonts.ts";
import { siteOrigin } from "./scripts/site-origin.ts";
import { writeToolCatalog, writeToolRegistry } from "./scripts/tool-registry.ts";
import { staticHeadersFile } from "./worker/security-headers.ts";

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
      // The prerender (scripts/prerender.ts) rewrites it with the hash of the CSS it inlines.
      this.emitFile({ type: "asset", fileName: "_headers", source: staticHeadersFile() });
    },
  };
}

/**
 * The registries derived from tools/ (scripts/tool-registry.ts) and the language names' fonts
 * (scripts/language-name-fonts.ts), written before every build.
 */
function toolRegistry(): Plugin {
  return {
    name: "tool-registry",
    async buildStart() {
      writeToolRegistry();
      await writeToolCatalog();
      await writeLanguageNameFonts();
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

/** The prerender's build reads every string from the bundle (i18n-server.ts) instead of fetching it. */
function serverStrings(): Plugin {
  const browserModule = fileURLToPath(new URL("./client/src/lib/i18n/i18n.ts", import.meta.url));
  const serverModule = fileURLToPath(new URL("./client/src/lib/i18n/i18n-server.ts", import.meta.url));
  return {
    name: "server-strings",
    apply: "build",
    enforce: "pre",
    async resolveId(source, importer, options) {
      if (!options.ssr || !/i18n\/i18n$/.test(source)) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return resolved?.id === browserModule ? serverModule : null;
    },
  };
}

/**
 * After the client build, renders every page to static HTML (scripts/prerender.ts), so `vite build`
 * alone makes the whole site.
 */
function prerenderPages(): Plugin {
  let failed = false;
  return {
    name: "prerender-pages",
    apply: "build",
    buildEnd(error) {
      failed = error !== undefined;
    },
    closeBundle: {
      sequential: true,
      handler() {
        if (failed) return;
        execFileSync(process.execPath, [fileURLToPath(new URL("./scripts/prerender.ts", import.meta.url))], {
          stdio: "inherit",
        });
      },
    },
  };
}

/**
 * Contract modules and tool declarations have no side effects: a shell module importing one
 * constant from the contract must not pull every declaration (and zod) into the first load.
 */
const SIDE_EFFECT_FREE = [/\/contract\/[^/]+\.ts$/, /\/contract\/generated\//, /\/tools\/[^/]+\/tool\.ts$/];

/** scripts/prerender.ts sets this for its server build (an inline `build.ssr` is not seen here). */
const SERVER_BUILD = process.env.PRERENDER_SERVER_BUILD === "1";

export default defineConfig(({ isSsrBuild }) => serverOrClient(Boolean(isSsrBuild) || SERVER_BUILD));

function serverOrClient(isSsrBuild: boolean): UserConfig {
  return {
    root: "client",
    base: "/",
    publicDir: false,
    plugins: isSsrBuild
      ? [toolRegistry(), serverStrings(), react()]
      : [
          toolRegistry(),
          react(),
          securityHeadersFile(),
          logoFile(),
          blogContentFiles(),
          moduleList(),
          prerenderPages(),
        ],
    define: { "import.meta.env.VITE_SITE_ORIGIN": JSON.stringify(siteOrigin()) },
    build: {
      outDir: isSsrBuild ? "../dist/server" : "../dist/client",
      emptyOutDir: true,
      rolldownOptions: {
        treeshake: {
          moduleSideEffects: (id: string) => !SIDE_EFFECT_FREE.some((pattern) => pattern.test(id)),
        },
      },
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
  };
}
