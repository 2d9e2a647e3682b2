import type { BackendModule, ReadCallback } from "i18next";

/** Address of a namespace's strings in a language, or undefined when there are none. */
export type LocaleUrl = (language: string, namespace: string) => string | undefined;

/**
 * An i18next backend fetching each namespace's JSON file. A failed load (network, server error)
 * is reported as retryable, so i18next tries again: 5 more times from 350 ms, doubling each time
 * (its `maxRetries`/`retryTimeout` defaults, the spec §9 schedule). Files are fetched rather than
 * imported as chunks because a browser keeps a failed module import failed for the page's life.
 */
export function localeBackend(urlOf: LocaleUrl, load: typeof fetch = (url) => fetch(url)): BackendModule {
  return {
    type: "backend",
    init() {},
    read(language: string, namespace: string, callback: ReadCallback) {
      const url = urlOf(language, namespace);
      if (url === undefined) {
        callback(new Error(`No ${namespace} strings for ${language}`), false);
        return;
      }
      load(url)
        .then((response) => {
          if (!response.ok) throw new Error(`Strings answered ${response.status}`);
          return response.json() as Promise<Record<string, unknown>>;
        })
        .then(
          (strings) => callback(null, strings),
          (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), true),
        );
    },
  };
}
