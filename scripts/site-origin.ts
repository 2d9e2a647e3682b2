import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "..");

/** Hosts of a local run: their origin follows the port `npm start` serves on. */
const LOCAL_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

/**
 * The site's public origin (canonical and alternate addresses, sitemap.xml, robots.txt): the
 * SITE_ORIGIN environment variable at build time, else `SITE_ORIGIN` in wrangler.toml's [vars]. When
 * that is a local address and PORT is set (`PORT=8840 npm start`), the port is PORT's, so a local
 * site's canonical links and sitemap point at the port it really serves on.
 */
export function siteOrigin(root = ROOT, env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.SITE_ORIGIN?.trim();
  const fromConfig = /^SITE_ORIGIN\s*=\s*"([^"]+)"/m.exec(
    readFileSync(join(root, "wrangler.toml"), "utf8"),
  )?.[1];
  const origin = fromEnv || fromConfig;
  if (!origin) throw new Error("Set SITE_ORIGIN (wrangler.toml [vars] or the environment)");
  const url = new URL(origin);
  if (url.pathname !== "/" || url.search || url.hash)
    throw new Error(`SITE_ORIGIN must be an origin: ${origin}`);
  const port = env.PORT?.trim();
  if (!fromEnv && port && LOCAL_HOSTS.has(url.hostname)) {
    if (!/^\d{1,5}$/.test(port) || Number(port) > 65535) throw new Error(`PORT is not a port: ${port}`);
    url.port = port;
  }
  return url.origin;
}
