import {
  type KeyboardEvent,
  type SyntheticEvent,
  useLayoutEffect,
  useRef,
  useState,
  useSyncExternalStore,
} from "react";
import { useTranslation } from "react-i18next";
import { Icon } from "../../components/icon";
import { LocalizedLink } from "../../components/localized-link";
import { Spinner } from "../../components/spinner";
import { PATHS } from "../../config/paths";
import { recentConversions } from "../../lib/free-conversions/free-conversions";
import {
  connectFreeToolAccessDialog,
  freeToolAccessRequest,
  settleFreeToolAccess,
} from "../../lib/free-conversions/free-tool-access";
import { type AccessPhase, runAccessClock } from "./access-clock";
import { PremiumBenefits } from "./premium-benefits";
import "./premium.css";

/** Shows the Free Tool Access notice whenever a tool start asks for it; mounted once by the tool route. */
export function FreeToolAccessHost() {
  const request = useSyncExternalStore(connectFreeToolAccessDialog, freeToolAccessRequest, () => null);
  return request === null ? null : <FreeToolAccessDialog key={request} />;
}

/**
 * The modal (spec §2, §4): a spinner for 1.5 s, then "Please wait N seconds" from 5 with Continue
 * to Tool disabled; at zero Continue, the close icon, Escape and an Upgrade to Premium link work.
 * A native modal <dialog> keeps focus inside; focus returns to where it was when it closes.
 */
function FreeToolAccessDialog() {
  const { t } = useTranslation();
  const ref = useRef<HTMLDialogElement>(null);
  const [phase, setPhase] = useState<AccessPhase>({ name: "loading" });
  const [used] = useState(() => recentConversions().length);
  const closable = phase.name === "ready";

  // At commit, not after the browser has painted (where useEffect may run): the modal opens with the
  // dialog, and its 1.5 s and 5 s are counted from the moment it is shown.
  useLayoutEffect(() => runAccessClock(setPhase), []);
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (dialog === null) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    dialog.showModal();
    dialog.focus();
    return () => {
      dialog.close();
      opener?.focus();
    };
  }, []);

  // Escape (and any other close request) dismisses the notice only once the countdown is over.
  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.key === "Tab") keepTabInside(event);
    if (event.key !== "Escape") return;
    event.preventDefault();
    if (closable) settleFreeToolAccess(false);
  };
  const onCancel = (event: SyntheticEvent<HTMLDialogElement>) => {
    event.preventDefault();
    if (closable) settleFreeToolAccess(false);
  };

  return (
    <dialog
      ref={ref}
      className="access-dialog"
      aria-labelledby="free-tool-access-title"
      aria-describedby="free-tool-access-intro"
      tabIndex={-1}
      onKeyDown={onKeyDown}
      onCancel={onCancel}
      data-testid="free-tool-access"
    >
      <div className="access-dialog__header">
        <h2 id="free-tool-access-title" className="access-dialog__title">
          {t("freeToolAccess.title")}
        </h2>
        <button
          type="button"
          className="button button--ghost access-dialog__close"
          aria-label={t("freeToolAccess.close")}
          disabled={!closable}
          onClick={() => settleFreeToolAccess(false)}
        >
          <Icon name="close" />
        </button>
      </div>
      <p id="free-tool-access-intro">{t("freeToolAccess.intro", { count: used })}</p>
      <PremiumBenefits variant="list" />
      {phase.name === "loading" ? (
        <Spinner label={t("freeToolAccess.loading")} />
      ) : (
        <>
          <p className="access-dialog__status" role="status" data-testid="free-tool-access-status">
            {phase.name === "waiting"
              ? t("freeToolAccess.wait", { count: phase.seconds })
              : t("freeToolAccess.ready")}
          </p>
          <div className="access-dialog__actions">
            <button
              type="button"
              className="button button--primary"
              disabled={!closable}
              onClick={() => settleFreeToolAccess(true)}
            >
              {t("freeToolAccess.continue")}
            </button>
            {closable ? (
              <LocalizedLink
                to={PATHS.premium}
                className="button button--outline"
                onClick={() => settleFreeToolAccess(false)}
              >
                {t("freeToolAccess.upgrade")}
              </LocalizedLink>
            ) : null}
          </div>
        </>
      )}
    </dialog>
  );
}

/**
 * Tab and Shift+Tab cycle through the dialog's enabled controls; with none yet (countdown), focus
 * stays on the dialog instead of leaving for the browser's own interface.
 */
function keepTabInside(event: KeyboardEvent<HTMLDialogElement>) {
  const controls = [...event.currentTarget.querySelectorAll<HTMLElement>("button:not(:disabled), a[href]")];
  const first = controls[0];
  const last = controls.at(-1);
  const active = document.activeElement;
  if (first === undefined || last === undefined) {
    event.preventDefault();
    event.currentTarget.focus();
  } else if (event.shiftKey && (active === first || active === event.currentTarget)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && active === last) {
    event.preventDefault();
    first.focus();
  }
}
