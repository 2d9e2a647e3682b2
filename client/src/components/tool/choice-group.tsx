interface ChoiceGroupProps<T extends string> {
  name: string;
  legend: string;
  choices: readonly T[];
  value: T;
  disabled: boolean;
  label: (choice: T) => string;
  hint?: (choice: T) => string;
  onChange: (choice: T) => void;
}

/** One option of the tool (margin, orientation) as a row of radio segments. */
export function ChoiceGroup<T extends string>(props: ChoiceGroupProps<T>) {
  return (
    <fieldset className="segmented" disabled={props.disabled}>
      <legend className="segmented__legend">{props.legend}</legend>
      <div className="segmented__options">
        {props.choices.map((choice) => (
          <label key={choice} className="segmented__option">
            <input
              type="radio"
              name={props.name}
              value={choice}
              checked={props.value === choice}
              onChange={() => props.onChange(choice)}
            />
            <span className="segmented__text">
              <span className="segmented__label">{props.label(choice)}</span>
              {props.hint ? <span className="segmented__hint">{props.hint(choice)}</span> : null}
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
