/**
 * Vite plugin: content/blog (metadata.json, posts/*.md, images and attachments) copied into the
 * client build under /content/blog/, where the Worker serves it (worker/blog-content-route.ts);
 * the dev server answers the same paths from the folder itself.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { Plugin } from "vite";
import { BLOG_CONTENT_PATH, contentFilePath } from "../worker/blog-content-types.ts";

const CONTENT_DIR = fileURLToPath(new URL("../content/blog", import.meta.url));

/** Every servable file under content/blog, as paths relative to it with "/" separators. */
function contentFiles(dir = CONTENT_DIR): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return contentFiles(full);
    const path = relative(CONTENT_DIR, full).split(sep).join("/");
    return contentFilePath(path) === null ? [] : [path];
  });
}

export function blogContentFiles(): Plugin {
  return {
    name: "blog-content-files",
    configureServer(server) {
      server.middlewares.use(BLOG_CONTENT_PATH, (request, response, next) => {
        const file = contentFilePath((request.url ?? "").split("?")[0]?.replace(/^\//, "") ?? "");
        const full = file === null ? "" : join(CONTENT_DIR, file.path);
        if (file === null || !existsSync(full)) return next();
        response.setHeader("Content-Type", file.type);
        response.end(readFileSync(full));
      });
    },
    generateBundle() {
      for (const path of contentFiles()) {
        this.emitFile({
          type: "asset",
          fileName: `${BLOG_CONTENT_PATH.slice(1)}${path}`,
          source: readFileSync(join(CONTENT_DIR, path)),
        });
      }
    },
  };
}
