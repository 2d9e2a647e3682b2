import { Container } from "@cloudflare/containers";
import type { Env } from "./env.ts";

/** Container instances the converter client spreads jobs over (wrangler.toml `max_instances`). */
export const CONVERTER_INSTANCES = 4;

/**
 * The converter container (container/): an HTTP service on port 8080 speaking the protocol of
 * contract/converter.ts, listening on all interfaces of the container and requiring the Worker's
 * CONVERTER_SECRET. It sleeps after a few idle minutes; the next job starts it again.
 */
export class ConverterContainer extends Container<Env> {
  override defaultPort = 8080;
  override sleepAfter = "5m";
  override envVars = { HOST: "0.0.0.0", PORT: "8080", CONVERTER_SECRET: this.env.CONVERTER_SECRET };
}
