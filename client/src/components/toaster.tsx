import { useSyncExternalStore } from "react";
import { useTranslation } from "react-i18next";
import { dismissToast, getToasts, subscribeToasts } from "../lib/toast-store";
import { Icon } from "./icon";
import "./toaster.css";

/** Renders the visible toast; destructive toasts are alerts, others polite status messages. */
export function Toaster() {
  const { t } = useTranslation();
  const toasts = useSyncExternalStore(subscribeToasts, getToasts, getToasts);
  return (
    <div className="toaster">
      {toasts.map((toast) => (
        <div
          key={toast.id}
          className={`toast toast--${toast.variant}`}
          role={toast.variant === "destructive" ? "alert" : "status"}
          aria-live={toast.variant === "destructive" ? "assertive" : "polite"}
          aria-atomic="true"
          data-testid="toast"
        >
          <div className="toast__text">
            <p className="toast__title">{toast.title}</p>
            {toast.description ? <p className="toast__description">{toast.description}</p> : null}
          </div>
          <button
            type="button"
            className="toast__close"
            aria-label={t("app.dismiss")}
            onClick={() => dismissToast(toast.id)}
          >
            <Icon name="close" />
          </button>
        </div>
      ))}
    </div>
  );
}
