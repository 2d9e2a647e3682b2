/**
 * Headers on every response (API from the Worker, SPA files through `_headers`, which the client
 * build writes from this table). No third-party origin is allowed anywhere.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "Content-Security-Policy": [
    "default-src 'self'",
    // WebAssembly compiled from same-origin files only (pdf.js's image decoders); no eval.
    "script-src 'self' 'wasm-unsafe-eval'",
    "style-src 'self'",
    "img-src 'self' blob: data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; "),
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  "X-Frame-Options": "DENY",
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Resource-Policy": "same-origin",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=()",
  "Strict-Transport-Security": "max-age=31536000; includeSubDomains",
};

/**
 * The `_headers` file of the static files: SECURITY_HEADERS for every path, the CSP allowing the
 * inline `<style>` elements whose hashes are given ("sha256-…", base64) and nothing else inline.
 */
export function staticHeadersFile(inlineStyleHashes: readonly string[] = []): string {
  const sources = inlineStyleHashes.map((hash) => ` '${hash}'`).join("");
  const lines = Object.entries(SECURITY_HEADERS).map(([name, value]) => {
    const withStyles =
      name === "Content-Security-Policy"
        ? value.replace("style-src 'self'", `style-src 'self'${sources}`)
        : value;
    return `  ${name}: ${withStyles}`;
  });
  return `/*\n${lines.join("\n")}\n`;
}
