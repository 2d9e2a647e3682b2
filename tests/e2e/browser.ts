import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/**
 * Chromium's own pages that a new window loads in a renderer of their own: the omnibox popup's WebUI
 * (chrome://omnibox-popup.top-chrome), about 1.5 s of CPU for every new context (each is a new window
 * in headless Chromium), racing the page under test for the machine's cores. No test uses the address
 * bar. (Chromium merges this switch with the `--disable-features` Playwright passes.)
 */
const CHROME_UI_FEATURES = ["WebUIOmniboxPopup", "WebUIOmniboxAimPopup", "WebUIOmniboxFullPopup"];

/** Debian's Chromium, headless, with no background traffic (the machine has no network). */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}`);
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--disable-quic",
      `--disable-features=${CHROME_UI_FEATURES.join(",")}`,
    ],
  });
}
