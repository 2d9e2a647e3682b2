import { useTranslation } from "react-i18next";
import { Icon, type IconName } from "../../components/icon";

/** What the premium tier offers (spec §1), shown on /premium and in the Free Tool Access notice. */
const BENEFITS: ReadonlyArray<{ id: "unlimited" | "noAds" | "advanced"; icon: IconName }> = [
  { id: "unlimited", icon: "convert" },
  { id: "noAds", icon: "lock" },
  { id: "advanced", icon: "ocr" },
];

export function PremiumBenefits({ variant }: { variant: "cards" | "list" }) {
  const { t } = useTranslation();
  if (variant === "list") {
    return (
      <ul className="premium-list">
        {BENEFITS.map((benefit) => (
          <li key={benefit.id}>{t(`pages.premium.benefits.${benefit.id}.title`)}</li>
        ))}
      </ul>
    );
  }
  return (
    <ul className="card-grid card-grid--three">
      {BENEFITS.map((benefit) => (
        <li key={benefit.id} className="card premium-card">
          <span className="premium-card__icon">
            <Icon name={benefit.icon} />
          </span>
          <h2 className="card__title">{t(`pages.premium.benefits.${benefit.id}.title`)}</h2>
          <p className="card__text">{t(`pages.premium.benefits.${benefit.id}.body`)}</p>
        </li>
      ))}
    </ul>
  );
}
