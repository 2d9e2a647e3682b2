import { useTranslation } from "react-i18next";
import { HOME_SECTIONS } from "../../config/paths";
import { contentItems } from "./content-items";

/** The quotes of the locale file's `testimonials` group, each with the author's initials, name and role. */
export function Testimonials() {
  const { t } = useTranslation();
  return (
    <section
      id={HOME_SECTIONS.testimonials}
      className="section testimonials"
      aria-labelledby="testimonials-title"
      tabIndex={-1}
    >
      <div className="container">
        <h2 id="testimonials-title" className="section__title">
          {t("testimonials.title")}
        </h2>
        <p className="section__subtitle">{t("testimonials.subtitle")}</p>
        <ul className="card-grid card-grid--four">
          {contentItems(t, "testimonials").map((author) => (
            <li key={author} className="card testimonial">
              <blockquote className="testimonial__quote">
                <p>{t(`testimonials.${author}.quote`)}</p>
              </blockquote>
              <div className="testimonial__author">
                <span className="avatar" aria-hidden="true">
                  {t(`testimonials.${author}.initials`)}
                </span>
                <span>
                  <span className="testimonial__name">{t(`testimonials.${author}.author`)}</span>
                  <span className="testimonial__role">{t(`testimonials.${author}.role`)}</span>
                </span>
              </div>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
