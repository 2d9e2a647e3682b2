import { useTranslation } from "react-i18next";
import { Icon, type IconName } from "../../components/icon";
import { LocalizedLink } from "../../components/localized-link";

interface ToolCardProps {
  to: string;
  name: string;
  description: string;
  icon: IconName;
  /** Announced but not usable yet: dimmed and flagged, still a link. */
  disabled?: boolean;
  premium?: boolean;
}

export function ToolCard({ to, name, description, icon, disabled = false, premium = false }: ToolCardProps) {
  const { t } = useTranslation();
  return (
    <li className="tool-card-item">
      <LocalizedLink
        to={to}
        className={`card tool-card${disabled ? " tool-card--disabled" : ""}`}
        data-disabled={disabled ? "true" : undefined}
        data-testid="tool-card"
      >
        <span className="tool-card__icon">
          <Icon name={icon} />
        </span>
        <span className="tool-card__body">
          <span className="tool-card__name">
            {name}
            {premium ? <span className="badge badge--premium">{t("pages.tools.premium")}</span> : null}
            {disabled ? <span className="badge">{t("pages.tools.comingSoon")}</span> : null}
          </span>
          <span className="tool-card__description">{description}</span>
        </span>
      </LocalizedLink>
    </li>
  );
}
