import { Link, type LinkProps } from "react-router";
import { useLocalizedPath } from "../lib/i18n/use-localized-path";

/** A router link to an app path, kept under the current language prefix. */
export function LocalizedLink({ to, ...props }: Omit<LinkProps, "to"> & { to: string }) {
  const localize = useLocalizedPath();
  return <Link to={localize(to)} {...props} />;
}
