import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { untilHydrated, useHydrated } from "../../lib/use-hydrated";
import { Icon } from "../icon";
import { chooseTheme, currentTheme, storedTheme, type Theme } from "./theme";

/** Switches between the light and dark theme; until clicked the page follows the system setting. */
export function ThemeToggle() {
  const { t } = useTranslation();
  const [theme, setTheme] = useState<Theme>("light");
  const hydrated = useHydrated();

  useEffect(() => {
    setTheme(currentTheme());
    const query = window.matchMedia("(prefers-color-scheme: dark)");
    const follow = () => {
      if (storedTheme() === null) setTheme(query.matches ? "dark" : "light");
    };
    query.addEventListener("change", follow);
    return () => query.removeEventListener("change", follow);
  }, []);

  const next: Theme = theme === "dark" ? "light" : "dark";
  return (
    <button
      type="button"
      className="icon-button theme-toggle"
      aria-label={next === "dark" ? t("nav.darkTheme") : t("nav.lightTheme")}
      title={next === "dark" ? t("nav.darkTheme") : t("nav.lightTheme")}
      data-testid="theme-toggle"
      data-theme-shown={theme}
      {...untilHydrated(hydrated)}
      onClick={() => {
        chooseTheme(next);
        setTheme(next);
      }}
    >
      <Icon name={theme === "dark" ? "sun" : "moon"} />
    </button>
  );
}
