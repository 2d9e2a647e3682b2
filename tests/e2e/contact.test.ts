import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { CONTACT_PATHS, contactReceiptSchema } from "../../contract/contact.ts";
import { chromiumPages, translator } from "./page-helpers.ts";

const siteUrl = inject("siteUrl");
const newPage = chromiumPages();
const SUBMIT = `**${CONTACT_PATHS.submit}`;
const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

/** WCAG 2 A/AA violations axe-core finds in the contact form, as "rule: target" lines. */
async function axeViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol: the site's CSP rightly refuses an injected <script>.
  await page.evaluate(readFileSync(AXE, "utf8"));
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: typeof import("axe-core") }).axe;
    const result = await axe.run("[data-testid=contact-form]", {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] },
    });
    return result.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(" ")}`));
  });
}

async function fill(page: Page, t: ReturnType<typeof translator>, values: Record<string, string>) {
  for (const [field, value] of Object.entries(values))
    await page.getByLabel(t(`pages.contact.${field}`), { exact: false }).fill(value);
}

const fieldValues = (page: Page) =>
  page.evaluate(() =>
    ["contact-name", "contact-email", "contact-topic", "contact-message"].map(
      (id) => (document.getElementById(id) as HTMLInputElement).value,
    ),
  );

describe("Contact form", () => {
  it("shows Sending... until the server has stored the message, then resets and confirms (in Spanish)", async () => {
    const t = translator("es");
    const page = await newPage();
    await page.goto(`${siteUrl}/es/contact?topic=billing`);
    expect(await page.locator("#contact-topic").inputValue()).toBe("billing");
    await fill(page, t, {
      name: "Lucía Pérez",
      email: "lucia@example.org",
      message: "¿Tienen un plan anual?",
    });

    // Hold the request until the page has been seen waiting for it.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(SUBMIT, async (route) => {
      await held;
      await route.continue();
    });
    const answer = page.waitForResponse((response) => response.url().endsWith(CONTACT_PATHS.submit));
    await page.getByRole("button", { name: t("pages.contact.submit") }).click();
    const sending = page.getByRole("button", { name: t("pages.contact.sending") });
    await expect.poll(() => sending.count()).toBe(1);
    expect(await sending.isDisabled()).toBe(true);
    // Nothing is cleared or confirmed before the server answers.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await fieldValues(page))[0]).toBe("Lucía Pérez");
    expect(await page.getByText(t("pages.contact.submitted")).count()).toBe(0);
    expect(await page.getByTestId("contact-sent").count()).toBe(0);
    release();

    const response = await answer;
    expect(response.status()).toBe(201);
    expect(contactReceiptSchema.parse(await response.json()).id).toBeGreaterThan(0);
    expect(response.request().postDataJSON()).toMatchObject({
      name: "Lucía Pérez",
      email: "lucia@example.org",
      topic: "billing",
      message: "¿Tienen un plan anual?",
      language: "es",
      website: "",
    });
    await expect.poll(() => page.getByText(t("pages.contact.submitted")).count()).toBe(1);
    expect(await fieldValues(page)).toEqual(["", "", "", ""]);
    expect(await page.getByRole("button", { name: t("pages.contact.submit") }).isEnabled()).toBe(true);
    // Beside the short toast, the page itself says the message was sent and what happens next, and
    // takes the focus there (a screen reader reads it).
    const notice = page.getByTestId("contact-sent");
    expect(await notice.getAttribute("role")).toBe("status");
    expect(await notice.locator("h2").innerText()).toBe(t("pages.contact.sent.title"));
    expect(await notice.locator("p").innerText()).toBe(
      t("pages.contact.sent.body", { name: "Lucía Pérez", email: "lucia@example.org" }),
    );
    expect(await notice.evaluate((node) => node === document.activeElement)).toBe(true);
    await page.context().close();
  });

  it("keeps everything typed when the server is down, rate-limits or refuses a field, and sends once it can", async () => {
    const t = translator("en");
    const page = await newPage();
    await page.goto(`${siteUrl}/contact`);
    const typed = { name: "Ravi Kumar", email: "ravi@example.in", message: "The split tool saved my day." };
    await fill(page, t, typed);
    await page.locator("#contact-topic").selectOption("feedback");
    const expected = [typed.name, typed.email, "feedback", typed.message];
    const send = page.getByRole("button", { name: t("pages.contact.submit") });
    const alert = page.getByRole("alert");

    // Server down: the request never gets an answer.
    await page.route(SUBMIT, (route) => route.abort("internetdisconnected"));
    await send.click();
    await expect.poll(() => alert.textContent()).toContain(t("pages.contact.notSent"));
    expect(await alert.textContent()).toContain(t("errors.network"));
    expect(await alert.textContent()).toContain(t("pages.contact.textKept"));
    expect(await fieldValues(page)).toEqual(expected);
    expect(await send.isEnabled()).toBe(true);

    // Too many messages: the limit's own message.
    await page.unroute(SUBMIT);
    await page.route(SUBMIT, (route) =>
      route.fulfill({
        status: 429,
        contentType: "application/json",
        headers: { "Retry-After": "60" },
        body: JSON.stringify({ error: { code: "RATE_LIMITED", message: "Too many contact messages" } }),
      }),
    );
    await send.click();
    await expect.poll(() => alert.textContent()).toContain(t("errors.codes.RATE_LIMITED"));
    expect(await fieldValues(page)).toEqual(expected);

    // A field the server refuses is marked with its message, and gets the focus.
    await page.unroute(SUBMIT);
    await page.route(SUBMIT, (route) =>
      route.fulfill({
        status: 400,
        contentType: "application/json",
        body: JSON.stringify({
          error: { code: "BAD_REQUEST", message: "refused", context: { field: "email", problem: "invalid" } },
        }),
      }),
    );
    await send.click();
    const emailProblem = t("pages.contact.problems.emailInvalid");
    await expect.poll(() => alert.textContent()).toContain(emailProblem);
    expect(await page.locator("#contact-email-problem").textContent()).toBe(emailProblem);
    expect(await page.locator("#contact-email").getAttribute("aria-invalid")).toBe("true");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("contact-email");
    expect(await fieldValues(page)).toEqual(expected);

    // The server is back: the same text goes through.
    await page.unroute(SUBMIT);
    const answer = page.waitForResponse((response) => response.url().endsWith(CONTACT_PATHS.submit));
    await send.click();
    expect((await answer).status()).toBe(201);
    await expect.poll(() => page.getByText(t("pages.contact.submitted")).count()).toBe(1);
    expect(await fieldValues(page)).toEqual(["", "", "", ""]);
    await page.context().close();
  });

  it("checks the fields before sending, with messages in the page's language (in French)", async () => {
    const t = translator("fr");
    const page = await newPage();
    await page.goto(`${siteUrl}/fr/contact`);
    let requests = 0;
    page.on("request", (request) => {
      if (request.url().endsWith(CONTACT_PATHS.submit)) requests++;
    });
    const send = page.getByRole("button", { name: t("pages.contact.submit") });
    await send.click();
    const problems = page.getByTestId("field-problem");
    await expect
      .poll(() => problems.allTextContents())
      .toEqual([
        t("pages.contact.problems.nameRequired"),
        t("pages.contact.problems.emailRequired"),
        t("pages.contact.problems.messageRequired"),
      ]);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("contact-name");
    // The form with its messages shown (and its hidden honeypot) passes axe-core's WCAG 2.1 AA rules.
    expect(await axeViolations(page)).toEqual([]);

    await fill(page, t, { name: "Chloé", email: "chloe@", message: "Bonjour" });
    await send.click();
    await expect.poll(() => problems.allTextContents()).toEqual([t("pages.contact.problems.emailInvalid")]);
    expect(await page.locator("#contact-email").getAttribute("aria-describedby")).toBe(
      "contact-email-problem",
    );
    // Correcting the field clears its message.
    await page.locator("#contact-email").fill("chloe@example.fr");
    expect(await problems.count()).toBe(0);
    expect(requests).toBe(0);

    // The honeypot is neither reachable with the keyboard nor exposed to assistive technology.
    await page.locator("#contact-name").focus();
    const order: string[] = [];
    for (let i = 0; i < 5; i++) {
      await page.keyboard.press("Tab");
      order.push(
        await page.evaluate(() => document.activeElement?.id || document.activeElement?.tagName || ""),
      );
    }
    expect(order.slice(0, 4)).toEqual(["contact-email", "contact-topic", "contact-message", "BUTTON"]);
    expect(order).not.toContain("contact-website");
    expect(await page.getByRole("textbox", { name: t("pages.contact.honeypot") }).count()).toBe(0);
    // And it lies outside the page, where nobody sees it.
    const box = await page.locator("#contact-website").boundingBox();
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(0);
    await page.context().close();
  });
});
