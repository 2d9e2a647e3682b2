/**
 * The app's scripts do not hold the first paint back (issue 25): the prerendered page is the first
 * thing the browser shows, and React, the router and the app are evaluated only once the browser has
 * presented that first contentful paint (client/src/main.tsx). React's DOM renderer calls the devtools
 * hook when its module is evaluated: a hook installed before any script records when, and the time
 * is compared with the paint's. Checked over several cold loads of the home page and a tool page, as
 * the race it rules out (the scripts arriving before the first frame is drawn) does not come every time.
 * The same loads show that nothing the scripts use is even requested before that paint but the entry
 * itself: the app's modules and the locale files are announced by the entry once the page is painted
 * (client/src/lib/announce-after-paint.ts); requested with the page, their ~25 requests and the
 * modules' compilation competed with its first layout and paint.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchChromium } from "./browser.ts";

const siteUrl = inject("siteUrl");
const LOADS = 8;

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

/** A stand-in for React's devtools: records when the renderer's module is first evaluated. */
const RECORD_REACT_EVALUATION = () => {
  const record = window as unknown as { reactEvaluatedAt?: number };
  const now = () => {
    record.reactEvaluatedAt ??= performance.now();
  };
  (window as unknown as { __REACT_DEVTOOLS_GLOBAL_HOOK__: object }).__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    isDisabled: false,
    supportsFiber: true,
    renderers: new Map(),
    checkDCE: now,
    inject: () => {
      now();
      return 1;
    },
    onScheduleFiberRoot() {},
    onCommitFiberRoot() {},
    onPostCommitFiberRoot() {},
    onCommitFiberUnmount() {},
  };
};

interface Load {
  /** When React was evaluated and when the first contentful paint was presented. */
  readonly react: number;
  readonly paint: number;
  /** The scripts and JSON files other than the entry whose request started before that paint. */
  readonly early: readonly string[];
}

/** One cold load of `path`. */
async function timesOf(path: string): Promise<Load> {
  const context = await browser.newContext();
  try {
    await context.addInitScript(RECORD_REACT_EVALUATION);
    const page = await context.newPage();
    await page.goto(`${siteUrl}${path}`);
    await page.waitForFunction((shown) => document.documentElement.dataset.pageReady === shown, path, {
      timeout: 30_000,
    });
    return await page.evaluate(() => {
      const paint = performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? Number.NaN;
      const entry = document.querySelector<HTMLScriptElement>('script[type="module"]')?.src;
      const early = performance
        .getEntriesByType("resource")
        .filter(({ name, startTime }) => /\.(js|json)$/.test(new URL(name).pathname) && !(startTime >= paint))
        .map(({ name }) => name)
        .filter((name) => name !== entry);
      return {
        react: (window as unknown as { reactEvaluatedAt?: number }).reactEvaluatedAt ?? Number.NaN,
        paint,
        early,
      };
    });
  } finally {
    await context.close();
  }
}

/** The LOADS cold loads of a page, made once for the tests that read them. */
const loadsOf = new Map<string, Promise<Load[]>>();
function coldLoads(path: string): Promise<Load[]> {
  let loads = loadsOf.get(path);
  if (!loads) {
    loads = (async () => {
      const made: Load[] = [];
      for (let load = 0; load < LOADS; load++) made.push(await timesOf(path));
      return made;
    })();
    loadsOf.set(path, loads);
  }
  return loads;
}

describe("the first paint comes before the app's scripts run", () => {
  for (const path of ["/", "/tools/merge-pdf"]) {
    it(`${path}: React is evaluated after the first contentful paint, in every load`, async () => {
      const loads = await coldLoads(path);
      const early = loads.filter(({ react, paint }) => !(react >= paint));
      expect(early, JSON.stringify(loads.map(({ react, paint }) => [react, paint]))).toEqual([]);
    });

    it(`${path}: no script or locale file but the entry is requested before that paint`, async () => {
      const loads = await coldLoads(path);
      expect(loads.flatMap(({ early }) => early)).toEqual([]);
    });
  }
});
