import { useTranslation } from "react-i18next";
import { Icon, type IconName } from "../../components/icon";
import { LocalizedLink } from "../../components/localized-link";
import type { ToolState } from "../../lib/tool-catalog";

interface ToolCardProps {
  to: string;
  name: string;
  description: string;
  icon: IconName;
  /** From the tool's declaration: only "available" looks active; the others are dimmed and flagged. */
  state?: ToolState;
  premium?: boolean;
}

/**
 * One tool as a link. A tool announced as coming soon or declared but not built yet is dimmed and
 * flagged, and still opens its page, which says so and points to the tools that work.
 */
export function ToolCard({
  to,
  name,
  description,
  icon,
  state = "available",
  premium = false,
}: ToolCardProps) {
  const { t } = useTranslation();
  const dimmed = state !== "available";
  return (
    <li className="tool-card-item">
      <LocalizedLink
        to={to}
        className={`card tool-card${dimmed ? " tool-card--disabled" : ""}`}
        data-disabled={dimmed ? "true" : undefined}
        data-state={state}
        data-testid="tool-card"
      >
        <span className="tool-card__icon">
          <Icon name={icon} />
        </span>
        <span className="tool-card__body">
          <span className="tool-card__name">
            {name}
            {premium ? <span className="badge badge--premium">{t("pages.tools.premium")}</span> : null}
            {state === "coming-soon" ? <span className="badge">{t("pages.tools.comingSoon")}</span> : null}
            {state === "not-built" ? <span className="badge">{t("pages.tools.notBuilt")}</span> : null}
          </span>
          <span className="tool-card__description">{description}</span>
        </span>
      </LocalizedLink>
    </li>
  );
}
