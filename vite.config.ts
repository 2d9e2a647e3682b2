import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
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
 * Lists every chunk (its source modules, static and dynamic imports) in dist/client-modules.json and
 * every asset with its source files in dist/client-assets.json, outside the served folder: tests
 * check that no container engine reaches the browser, and the prerender (scripts/page-preloads.ts)
 * names the files a page will load.
 */
function moduleList(): Plugin {
  return {
    name: "module-list",
    apply: "build",
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).flatMap((item) =>
        item.type === "chunk"
          ? [
              {
                file: item.fileName,
                entry: item.isEntry,
                facade: item.facadeModuleId,
                imports: item.imports,
                dynamicImports: item.dynamicImports,
                modules: Object.keys(item.modules),
              },
            ]
          : [],
      );
      const assets = Object.values(bundle).flatMap((item) =>
        item.type === "asset" ? [{ file: item.fileName, sources: item.originalFileNames }] : [],
      );
      mkdirSync(fileURLToPath(new URL("./dist", import.meta.url)), { recursive: true });
      writeFileSync(
        fileURLToPath(new URL("./dist/client-modules.json", import.meta.url)),
        JSON.stringify(chunks),
      );
      writeFileSync(
        fileURLToPath(new URL("./dist/client-assets.json", import.meta.url)),
        JSON.stringify(assets),
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

/**
 * pdf.js's WebAssembly image decoders (JBIG2 and CCITT fax, JPEG 2000), served from this
 * origin at fixed names under PDFJS_WASM_PATH, which `getDocument({ wasmUrl })` names
 * (client/src/components/pdf/pdf-pages.ts): without them, scanned pages preview blank. The CSP's
 * 'wasm-unsafe-eval' (worker/security-headers.ts) lets the pdf.js worker compile them.
 */
const PDFJS_WASM_DIR = fileURLToPath(new URL("./node_modules/pdfjs-dist/wasm/", import.meta.url));
const PDFJS_DECODERS = ["jbig2.wasm", "openjpeg.wasm"];
const PDFJS_WASM_PATH = `/${ASSETS_DIR}/pdfjs/`;

function pdfjsDecoders(): Plugin {
  return {
    name: "pdfjs-decoders",
    configureServer(server) {
      server.middlewares.use(PDFJS_WASM_PATH, (request, response, next) => {
        const name = request.url?.replace(/^\//, "").replace(/\?.*$/, "") ?? "";
        if (!PDFJS_DECODERS.includes(name)) return next();
        response.setHeader("Content-Type", "application/wasm");
        response.end(readFileSync(`${PDFJS_WASM_DIR}${name}`));
      });
    },
    generateBundle() {
      for (const name of PDFJS_DECODERS) {
        this.emitFile({
          type: "asset",
          fileName: `${PDFJS_WASM_PATH.slice(1)}${name}`,
          source: readFileSync(`${PDFJS_WASM_DIR}${name}`),
        });
      }
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
      ? [toolRegistry(), serverStrings()]
      : [
          toolRegistry(),
          securityHeadersFile(),
          logoFile(),
          pdfjsDecoders(),
          blogContentFiles(),
          moduleList(),
          prerenderPages(),
        ],
    define: {
      "import.meta.env.VITE_SITE_ORIGIN": JSON.stringify(siteOrigin()),
      "import.meta.env.VITE_PDFJS_WASM_PATH": JSON.stringify(PDFJS_WASM_PATH),
    },
    oxc: { jsx: { runtime: "automatic" } },
    build: {
      outDir: isSsrBuild ? "../dist/server" : "../dist/client",
      emptyOutDir: true,
      rolldownOptions: {
        // React libraries mark their modules "use client" (for React Server Components): meaningless here.
        onwarn(warning, warn) {
          if (warning.code === "MODULE_LEVEL_DIRECTIVE" && warning.message.includes('"use client"')) return;
          warn(warning);
        },
        treeshake: {
          moduleSideEffects: (id: string) => !SIDE_EFFECT_FREE.some((pattern) => pattern.test(id)),
        },
      },
      assetsDir: ASSETS_DIR,
      // Inlined assets would become data: URLs; keep every asset a file under /static/dist/.
      assetsInlineLimit: 0,
      // One stylesheet for the whole site, inlined in every prerendered page (scripts/prerender.ts):
      // every page paints with all its rules from the first frame, and moving to another page never
      // waits for a stylesheet. It costs each page 2.3 KB gzip (the screens' rules, 13 KB raw).
      cssCodeSplit: false,
      sourcemap: false,
    },
    server: {
      proxy: {
        "/api": { target: "http://127.0.0.1:8787", changeOrigin: false },
      },
    },
  };
}
