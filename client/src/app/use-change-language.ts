import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useNavigate } from "react-router";
import type { LanguageCode } from "../lib/contract";
import { pathForLanguage } from "../lib/i18n/language-path";

/** Switches the interface language and rewrites the path to match, without reloading. */
export function useChangeLanguage() {
  const { i18n } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  return useCallback(
    (code: LanguageCode) => {
      void i18n.changeLanguage(code);
      navigate(`${pathForLanguage(location.pathname, code)}${location.search}${location.hash}`, {
        replace: true,
      });
    },
    [i18n, location, navigate],
  );
}
