/**
 * The frame around every screen: its inlined stylesheet, header blur after 10 px of scroll, the mobile menu closing on a
 * pick, language switching by path, the theme toggle, sizes formatted for the
 * language (spec §9) and the dropzone naming every refused file once.
 */
import { createHash } from "node:crypto";
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { TOOLS } from "../../contract/index.ts";
import { textPdf } from "../container/fixtures.ts";
import { chromiumPages, translator } from "./page-helpers.ts";

const siteUrl = inject("siteUrl");
const newPage = chromiumPages();
const mergeTool = TOOLS["merge-pdf"];

/** The smallest one-page PDF (about 300 bytes), padded with trailing blank lines to `size` bytes. */
function pdfOfSize(size: number): Buffer {
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>",
  ];
  let body = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(body.length);
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, "0")} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  if (body.length > size) throw new Error(`a PDF needs ${body.length} bytes`);
  return Buffer.concat([Buffer.from(body, "latin1"), Buffer.alloc(size - body.length, 0x0a)]);
}

const pdf = (name: string, buffer: Buffer | Uint8Array) => ({
  name,
  mimeType: "application/pdf",
  buffer: Buffer.from(buffer),
});

async function headerState(page: Page) {
  return page.evaluate(() => {
    const header = document.querySelector<HTMLElement>(".site-header");
    return {
      scrolled: header?.classList.contains("site-header--scrolled") ?? false,
      filter: header ? getComputedStyle(header).backdropFilter : "",
    };
  });
}

describe("stylesheet", () => {
  it("is inlined in the served page, allowed by its CSP hash alone, and styles the page", async () => {
    const response = await fetch(`${siteUrl}/tools/merge-pdf`);
    const html = await response.text();
    expect(html).not.toMatch(/<link rel="stylesheet"/);
    const css = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? "";
    expect(css.length).toBeGreaterThan(1000);
    const hash = createHash("sha256").update(css).digest("base64");
    const csp = response.headers.get("Content-Security-Policy") ?? "";
    expect(csp).toContain(`style-src 'self' 'sha256-${hash}';`);
    expect(csp).not.toContain("unsafe-inline");

    const page = await newPage();
    const refused: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) refused.push(message.text());
    });
    await page.goto(`${siteUrl}/tools/merge-pdf`);
    expect(
      await page.evaluate(() => getComputedStyle(document.querySelector(".site-header") as Element).position),
    ).toBe("fixed");
    expect(refused).toEqual([]);
    await page.context().close();
  });
});

describe("header", () => {
  it("turns translucent with a blur only once the page is scrolled more than 10 px", async () => {
    const page = await newPage();
    await page.goto(`${siteUrl}/`);
    await page.locator("h1").waitFor();
    await page.evaluate(() => window.scrollTo(0, 10));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(10);
    expect(await headerState(page)).toEqual({ scrolled: false, filter: "none" });
    await page.evaluate(() => window.scrollTo(0, 11));
    await expect.poll(async () => (await headerState(page)).scrolled).toBe(true);
    expect((await headerState(page)).filter).toContain("blur(12px)");
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect.poll(async () => (await headerState(page)).scrolled).toBe(false);
    await page.context().close();
  });

  it("leaves the first load where the visitor scrolled, and goes to the top after a route change", async () => {
    const page = await newPage();
    await page.goto(`${siteUrl}/`);
    await page.evaluate(() => window.scrollTo(0, 300));
    // Spec §9's scroll comes 100 ms after a route change; the first load is not one.
    await page.waitForTimeout(600);
    expect(await page.evaluate(() => window.scrollY)).toBe(300);
    await page
      .locator(".site-footer")
      .getByRole("link", { name: translator("en")("footer.company.about") })
      .click();
    await expect.poll(() => new URL(page.url()).pathname).toBe("/about");
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    await page.context().close();
  });

  it("on a phone, closes the menu when a language or a link is picked", async () => {
    const t = translator("de");
    const page = await newPage();
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto(`${siteUrl}/tools/merge-pdf`);
    await page.locator("h1").waitFor();
    expect(await page.getByTestId("language-select").isVisible()).toBe(false);
    await page.getByTestId("menu-toggle").click();
    await page.getByTestId("mobile-menu").waitFor();
    await page.getByTestId("mobile-menu").getByRole("button", { name: "Deutsch" }).click();
    await expect.poll(() => page.getByTestId("mobile-menu").count()).toBe(0);
    await expect.poll(() => new URL(page.url()).pathname).toBe("/de/tools/merge-pdf");
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe("de");

    await page.getByTestId("menu-toggle").click();
    await page
      .getByTestId("mobile-menu")
      .getByRole("link", { name: t("nav.about") })
      .click();
    await expect.poll(() => page.getByTestId("mobile-menu").count()).toBe(0);
    await expect.poll(() => new URL(page.url()).pathname).toBe("/de/about");
    expect(await page.getByTestId("menu-toggle").getAttribute("aria-expanded")).toBe("false");
    await page.context().close();
  });

  it("rewrites the path when the language changes, without reloading the page", async () => {
    const t = translator("fr");
    const page = await newPage();
    await page.goto(`${siteUrl}/tools/merge-pdf`);
    await page.locator("h1").waitFor();
    await page.evaluate(() => {
      (window as unknown as { notReloaded: boolean }).notReloaded = true;
    });
    await page.getByTestId("language-select").selectOption("fr");
    await expect.poll(() => new URL(page.url()).pathname).toBe("/fr/tools/merge-pdf");
    await expect.poll(() => page.locator("h1").textContent()).toBe(t("merge-pdf:name"));
    await page.getByTestId("language-select").selectOption("ta");
    await expect.poll(() => new URL(page.url()).pathname).toBe("/ta/tools/merge-pdf");
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(
      true,
    );
    await page.context().close();
  });
});

describe("theme", () => {
  const background = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);

  it("follows the system setting until the toggle picks one, and keeps the pick", async () => {
    const page = await newPage();
    await page.emulateMedia({ colorScheme: "dark" });
    await page.goto(`${siteUrl}/`);
    await page.locator("h1").waitFor();
    const dark = await background(page);
    await page.emulateMedia({ colorScheme: "light" });
    const light = await background(page);
    expect(dark).not.toBe(light);
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBeUndefined();

    // Light system setting: the toggle switches to dark and remembers it.
    await page.getByTestId("theme-toggle").click();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe("dark");
    expect(await page.evaluate(() => localStorage.getItem("theme"))).toBe("dark");
    expect(await background(page)).toBe(dark);
    await page.reload();
    await page.locator("h1").waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe("dark");
    expect(await background(page)).toBe(dark);

    await page.getByTestId("theme-toggle").click();
    expect(await page.evaluate(() => localStorage.getItem("theme"))).toBe("light");
    expect(await background(page)).toBe(light);
    await page.context().close();
  });
});

describe("file sizes (spec §9) and refused files", () => {
  for (const [lang, expected] of [
    ["en", ["512 B", "4.7 KB", "2.50 MB"]],
    ["de", ["512 B", "4,7 KB", "2,50 MB"]],
  ] as const) {
    it(`shows bytes, KB with one decimal and MB with two, formatted in ${lang}`, async () => {
      const page = await newPage();
      await page.goto(`${siteUrl}/${lang}/tools/merge-pdf`);
      await page
        .getByTestId("file-input")
        .setInputFiles([
          pdf("small.pdf", pdfOfSize(512)),
          pdf("medium.pdf", pdfOfSize(4813)),
          pdf("large.pdf", pdfOfSize(2.5 * 1024 * 1024)),
        ]);
      await expect.poll(() => page.getByTestId("file-row").count(), { timeout: 30_000 }).toBe(3);
      expect(await page.locator(".file-row__size").allTextContents()).toEqual(expected);
      await page.context().close();
    });
  }

  it("names a wrong type and an empty file once each in one message and keeps the good files", async () => {
    const page = await newPage();
    await page.goto(`${siteUrl}/tools/merge-pdf`);
    await page
      .getByTestId("file-input")
      .setInputFiles([
        { name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hello") },
        pdf("empty.pdf", Buffer.alloc(0)),
        pdf("alpha.pdf", textPdf("alpha", 1)),
        pdf("beta.pdf", textPdf("beta", 2)),
      ]);
    await expect.poll(() => page.getByTestId("file-row").count(), { timeout: 30_000 }).toBe(2);
    const toasts = page.getByTestId("toast");
    await expect.poll(() => toasts.count()).toBe(1);
    const text = (await toasts.textContent()) ?? "";
    expect(text.split("notes.txt").length - 1).toBe(1);
    expect(text.split("empty.pdf").length - 1).toBe(1);
    expect(text).not.toContain("alpha.pdf");
    await page.context().close();
  });

  it(`keeps the first ${mergeTool.input.maxFiles} of ${mergeTool.input.maxFiles + 1} files and names the one left out`, async () => {
    const t = translator("en");
    const limit = mergeTool.input.maxFiles;
    const page = await newPage();
    await page.goto(`${siteUrl}/tools/merge-pdf`);
    const files = Array.from({ length: limit + 1 }, (_, index) =>
      pdf(`file-${index + 1}.pdf`, pdfOfSize(600)),
    );
    await page.getByTestId("file-input").setInputFiles(files);
    await expect.poll(() => page.getByTestId("file-row").count(), { timeout: 30_000 }).toBe(limit);
    const message = t("errors.tooManyFiles", { limit, kept: limit, names: `file-${limit + 1}.pdf` });
    await expect.poll(() => page.getByTestId("toast").textContent()).toContain(message);
    await page.context().close();
  });
});
