/**
 * Light and dark themes. The CSS follows the system setting (color-scheme: light dark with
 * light-dark() tokens); a choice made with the header's toggle is kept in localStorage under `theme`
 * and set as data-theme on <html>, which overrides the system setting.
 */
export const THEME_STORAGE_KEY = "theme";

export type Theme = "light" | "dark";

export function isTheme(value: unknown): value is Theme {
  return value === "light" || value === "dark";
}

export function storedTheme(): Theme | null {
  try {
    const value = localStorage.getItem(THEME_STORAGE_KEY);
    return isTheme(value) ? value : null;
  } catch {
    return null;
  }
}

export function systemTheme(): Theme {
  return window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
}

/** The theme in effect: the stored choice, else the system's. */
export function currentTheme(): Theme {
  return storedTheme() ?? systemTheme();
}

export function applyTheme(theme: Theme | null) {
  if (theme) document.documentElement.dataset.theme = theme;
  else delete document.documentElement.dataset.theme;
}

export function chooseTheme(theme: Theme) {
  try {
    localStorage.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // Storage refused (private mode): the choice holds for this page only.
  }
  applyTheme(theme);
}

/**
 * Applies the stored choice. Called by the entry (main.tsx) after the first paint, before the app
 * is imported and rendered (the CSP allows no inline script), in a task of its own: the page's first
 * read of localStorage waits for the browser process to open the origin's storage, a synchronous
 * call that took up to 57 ms of the main thread on a busy machine when it ran inside the app's
 * module evaluation.
 */
export function applyStoredTheme() {
  applyTheme(storedTheme());
}
