/** One choice among a few, as the shared segmented radio group (client/src/styles/tool.css). */
export function ChoiceGroup<Value extends string | number>({
  name,
  legend,
  choices,
  value,
  disabled,
  onChange,
}: {
  name: string;
  legend: string;
  choices: readonly { value: Value; label: string; hint: string }[];
  value: Value;
  disabled: boolean;
  onChange: (value: Value) => void;
}) {
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
              <span className="segmented__hint">{choice.hint}</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
