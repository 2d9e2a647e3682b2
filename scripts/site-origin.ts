import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "..");

/**
 * The site's public origin (canonical and alternate addresses, sitemap.xml, robots.txt): the
 * SITE_ORIGIN environment variable at build time, else `SITE_ORIGIN` in wrangler.toml's [vars].
 */
export function siteOrigin(root = ROOT): string {
  const fromEnv = process.env.SITE_ORIGIN?.trim();
  const fromConfig = /^SITE_ORIGIN\s*=\s*"([^"]+)"/m.exec(
    readFileSync(join(root, "wrangler.toml"), "utf8"),
  )?.[1];
  const origin = fromEnv || fromConfig;
  if (!origin) throw new Error("Set SITE_ORIGIN (wrangler.toml [vars] or the environment)");
  const url = new URL(origin);
  if (url.pathname !== "/" || url.search || url.hash)
    throw new Error(`SITE_ORIGIN must be an origin: ${origin}`);
  return url.origin;
}
