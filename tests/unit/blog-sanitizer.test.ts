/**
 * The article sanitiser (client/src/features/blog/sanitize-post-html.ts) against known XSS payloads,
 * on jsdom (the DOM DOMPurify's own tests use). Script-capable output is judged independently of
 * the sanitiser: elements and attributes that can run script, and every address as the WHATWG URL
 * parser (the browser's) reads it, also after the output is parsed and serialised once more (mXSS).
 */
import { createRequire } from "node:module";
import type { WindowLike } from "dompurify";
import { marked } from "marked";
import { describe, expect, it } from "vitest";
import { CLOBBER_PREFIX, createPostSanitizer } from "../../client/src/features/blog/sanitize-post-html.ts";

interface JsdomModule {
  JSDOM: new (html: string) => { window: WindowLike & Window & typeof globalThis };
}
const { JSDOM } = createRequire(import.meta.url)("jsdom") as JsdomModule;
const { window } = new JSDOM("<!doctype html><body></body>");
const sanitize = createPostSanitizer(window);
const resolve = (path: string) => `/content/blog/${path}`;

const PAYLOADS = [
  "<script>alert(1)</script>",
  "<SCRIPT SRC=//evil.example/x.js></SCRIPT>",
  '<a href="javascript:alert(1)">x</a>',
  '<a href="JaVaScRiPt:alert(1)">x</a>',
  '<a href=" javascript:alert(1)">x</a>',
  '<a href="\u0001javascript:alert(1)">x</a>',
  '<a href="\u0000javascript:alert(1)">x</a>',
  '<a href="java\tscript:alert(1)">x</a>',
  '<a href="java\nscript:alert(1)">x</a>',
  '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">x</a>',
  '<a href="&#x6A;avascript&colon;alert(1)">x</a>',
  '<a href="javascript&#0000058alert(1)">x</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>',
  '<a href="vbscript:msgbox(1)">x</a>',
  '<a href="file:///etc/passwd">x</a>',
  '<img src="javascript:alert(1)">',
  '<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+">',
  "<img src=x onerror=alert(1)>",
  '<img src="x" onerror="alert(1)" alt="a">',
  "<svg onload=alert(1)>",
  "<svg><script>alert(1)</script></svg>",
  '<svg><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>',
  "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>",
  '<iframe src="https://evil.example"></iframe>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<object data="javascript:alert(1)"></object>',
  '<embed src="javascript:alert(1)">',
  '<form action="javascript:alert(1)"><button>x</button></form>',
  '<button formaction="javascript:alert(1)">x</button>',
  '<input type="image" formaction="javascript:alert(1)">',
  '<div style="background:url(javascript:alert(1))">x</div>',
  '<div style="width: expression(alert(1))">x</div>',
  "<style>@import 'javascript:alert(1)';</style>",
  '<link rel="stylesheet" href="javascript:alert(1)">',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<base href="javascript:alert(1)//">',
  "<details open ontoggle=alert(1)>",
  "<body onload=alert(1)>",
  '<blockquote cite="javascript:alert(1)">q</blockquote>',
  '<q cite="data:text/html,<script>alert(1)</script>">q</q>',
  '<video><source onerror="alert(1)"></video>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  "<p>x</p><!--<img src=x onerror=alert(1)>-->",
  '<a href="#" id="cookie" name="location">x</a>',
  "<template><script>alert(1)</script></template>",
  '<form><math><mtext></form><form><mglyph><svg><mtext><style><path id="</style><img onerror=alert(1) src>">',
  '<svg></p><style><a id="</style><img src=1 onerror=alert(1)>">',
  "[x](javascript:alert(1))",
  "[x](\u0001javascript:alert(1))",
  "[x](data:text/html,<script>alert(1)</script>)",
  "![x](javascript:alert(1))",
  "<javascript:alert(1)>",
  '[x](<javascript:alert(1)> "t")',
];

const SCRIPT_ELEMENTS =
  "script, iframe, frame, frameset, object, embed, applet, svg, math, style, link, meta, base, form, input, button, template, noscript, source, video, audio";
const LINK_PROTOCOLS = new Set(["http:", "https:", "irc:", "ircs:", "mailto:", "xmpp:"]);
const MEDIA_PROTOCOLS = new Set(["http:", "https:"]);

/** Everything in `html` that could run script, as readable strings (empty when safe). */
function scriptCapable(html: string): string[] {
  const container = window.document.createElement("div");
  container.innerHTML = html;
  const found: string[] = [];
  for (const element of Array.from(container.querySelectorAll(SCRIPT_ELEMENTS)))
    found.push(`<${element.tagName.toLowerCase()}>`);
  for (const element of Array.from(container.querySelectorAll("*"))) {
    for (const { name, value } of Array.from(element.attributes)) {
      if (/^on/i.test(name) || ["style", "srcdoc", "formaction", "action", "xlink:href"].includes(name))
        found.push(`${name}=${value}`);
      const protocols =
        name === "href" ? LINK_PROTOCOLS : ["src", "cite"].includes(name) ? MEDIA_PROTOCOLS : null;
      if (protocols === null || value === "") continue;
      const protocol = new window.URL(value, "https://site.example/blog/post").protocol;
      if (!protocols.has(protocol)) found.push(`${name}=${value} (${protocol})`);
    }
  }
  return found;
}

/** Markdown payloads go through marked first, as article bodies do. */
const render = (payload: string) => sanitize(marked.parse(payload, { async: false }), resolve);

describe("blog article sanitiser", () => {
  it.each(PAYLOADS)("leaves nothing script-capable in %j", (payload) => {
    const output = render(payload);
    expect(scriptCapable(output)).toEqual([]);
    // Mutation XSS: the output parsed and serialised once more must still be safe.
    const reparsed = window.document.createElement("div");
    reparsed.innerHTML = output;
    expect(scriptCapable(reparsed.innerHTML)).toEqual([]);
    expect(output.toLowerCase()).not.toContain("<script");
  });

  it("is not vacuous: the oracle flags the raw payloads", () => {
    const flagged = PAYLOADS.filter(
      (payload) => scriptCapable(marked.parse(payload, { async: false })).length > 0,
    );
    expect(flagged.length).toBeGreaterThan(PAYLOADS.length / 2);
  });

  it("keeps the allowed schemes and relative addresses, and resolves content paths", () => {
    const html = render(
      [
        "[site](https://example.org/a) [mail](mailto:a@example.org) [chat](xmpp:a@example.org)",
        "[irc](ircs://irc.example.org/room) [tool](/tools/merge-pdf) [section](#usage)",
        "![shot](images/merge.webp) ![remote](https://example.org/a.png)",
      ].join("\n\n"),
    );
    const container = window.document.createElement("div");
    container.innerHTML = html;
    const hrefs = Array.from(container.querySelectorAll("a")).map((a) => a.getAttribute("href"));
    expect(hrefs).toEqual([
      "https://example.org/a",
      "mailto:a@example.org",
      "xmpp:a@example.org",
      "ircs://irc.example.org/room",
      "/tools/merge-pdf",
      `#${CLOBBER_PREFIX}usage`,
    ]);
    const srcs = Array.from(container.querySelectorAll("img")).map((img) => img.getAttribute("src"));
    expect(srcs).toEqual(["/content/blog/images/merge.webp", "https://example.org/a.png"]);
    const external = container.querySelector('a[href="https://example.org/a"]');
    expect(external?.getAttribute("target")).toBe("_blank");
    expect(external?.getAttribute("rel")).toBe("noopener noreferrer");
    expect(container.querySelector('a[href="/tools/merge-pdf"]')?.hasAttribute("target")).toBe(false);
  });

  it("blanks images that are not http, https or relative, and links with other schemes", () => {
    const html = render("![a](ftp://example.org/a.png) [b](ftp://example.org/b)");
    expect(html).not.toContain("ftp:");
  });

  it("prefixes id and name values against DOM clobbering", () => {
    const html = sanitize('<h2 id="cookie">t</h2><a name="location" href="/x">x</a>', resolve);
    expect(html).toContain(`id="${CLOBBER_PREFIX}cookie"`);
    expect(html).toContain(`name="${CLOBBER_PREFIX}location"`);
  });

  it("keeps the Markdown structure (headings, lists, tables, code)", () => {
    const html = render("## Title\n\n- a\n- b\n\n| x | y |\n|---|---|\n| 1 | 2 |\n\n```\ncode\n```\n");
    for (const tag of ["<h2", "<ul>", "<li>", "<table>", "<td>", "<pre>", "<code>"])
      expect(html).toContain(tag);
  });
});
