// A row of buttons of which one is pressed (aria-pressed), in a group named for screen readers: the
// messages' filter ('Tous', 'Non lus'), the analytics' period ('7 jours' … '1 an'). Each screen
// keeps its own look (classes), the group its behaviour.

interface Props<V extends string> {
  /** The group's name, read before its buttons. */
  label: string;
  /** Each choice's value and visible text, in order. */
  options: readonly (readonly [V, string])[];
  value: V;
  onChoose: (value: V) => void;
  className: string;
  buttonClassName: string;
}

export default function ToggleGroup<V extends string>({
  label,
  options,
  value,
  onChoose,
  className,
  buttonClassName,
}: Props<V>) {
  return (
    <div role="group" aria-label={label} className={className}>
      {options.map(([option, text]) => (
        <button
          key={option}
          type="button"
          aria-pressed={value === option}
          onClick={() => onChoose(option)}
          className={buttonClassName}
        >
          {text}
        </button>
      ))}
    </div>
  );
}
