import type { ReactNode } from "react";

export interface Choice<T extends string | number> {
  readonly value: T;
  readonly label: string;
  /** A line under the label saying what the choice means. */
  readonly hint?: string | undefined;
}

interface ChoiceGroupProps<T extends string | number> {
  legend: string;
  /** The radio group's form name. */
  name: string;
  choices: readonly Choice<T>[];
  value: T;
  disabled: boolean;
  onChange: (value: T) => void;
  /** Shown under the choices (e.g. what every choice has in common). */
  children?: ReactNode;
}

/** One choice out of a few, as a radio group of labelled options with optional hints. */
export function ChoiceGroup<T extends string | number>(props: ChoiceGroupProps<T>) {
  const { legend, name, choices, value, disabled, onChange, children } = props;
  return (
    <fieldset className="segmented" disabled={disabled} data-testid={`${name}-choice`}>
      <legend className="segmented__legend">{legend}</legend>
      <div className="segmented__options">
        {choices.map((choice) => (
          <label key={choice.value} className="segmented__option">
            <input
              type="radio"
              name={name}
              value={choice.value}
              checked={value === choice.value}
              onChange={() => onChange(choice.value)}
            />
            <span className="segmented__text">
              <span className="segmented__label">{choice.label}</span>
              {choice.hint ? <span className="segmented__hint">{choice.hint}</span> : null}
            </span>
          </label>
        ))}
      </div>
      {children}
    </fieldset>
  );
}
