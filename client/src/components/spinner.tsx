/** A spinner; `centered` fills the area and centres it. The label is read by screen readers. */
export function Spinner({ centered = false, label }: { centered?: boolean; label?: string }) {
  return (
    <div
      className={centered ? "spinner-area" : "spinner-inline"}
      role="status"
      aria-live="polite"
      aria-busy="true"
      data-testid="spinner"
    >
      <span className="spinner" aria-hidden="true" />
      {label ? <span className="visually-hidden">{label}</span> : null}
    </div>
  );
}
