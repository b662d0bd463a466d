// The settings tabs' fields on react-hook-form (issue 27): a text, text area or French amount tied
// to its form by its dotted path — the path the server names a refused value by — with the kit's
// label, hint and error (src/admin/ui/kit.tsx).
import {
  get,
  useFormState,
  type FieldValues,
  type Path,
  type UseFormReturn,
} from 'react-hook-form';
import type { ReactNode } from 'react';
import { Field, INPUT } from '../ui/kit.tsx';

/** A tab's card, and its legend floated inside it like a heading instead of breaking its border. */
export const FIELDSET = 'space-y-5 rounded-lg border border-black/10 bg-white p-4 md:p-6';
export const LEGEND = 'float-left mb-4 w-full font-serif text-xl [&+*]:clear-left';

/** A tab's group of fields: the card, titled by its legend. */
export function Fieldset({ legend, children }: { legend: string; children: ReactNode }) {
  return (
    <fieldset className={FIELDSET}>
      <legend className={LEGEND}>{legend}</legend>
      {children}
    </fieldset>
  );
}
/** The Promotions tab's sections and their headings. */
export const SECTION = 'space-y-4 rounded-lg border border-black/10 bg-white p-4 md:p-6';
export const HEADING = 'font-serif text-xl';

/** The message a field carries now (the resolver's or the server's), subscribed to its state. */
export function useFieldError<T extends FieldValues>(
  form: UseFormReturn<T, unknown, unknown>,
  path: string,
): string | undefined {
  const { errors } = useFormState({ control: form.control, name: path as Path<T> });
  const error: { message?: unknown } | undefined = get(errors, path);
  return typeof error?.message === 'string' ? error.message : undefined;
}

export interface TextOptions {
  hint?: string | undefined;
  required?: boolean;
  type?: 'text' | 'email' | 'tel' | 'url';
  rows?: number;
  maxLength: number;
  autoComplete?: string;
  inputMode?: 'numeric' | 'decimal';
  placeholder?: string;
  className?: string;
  lang?: string;
}

export function TextField<T extends FieldValues>({
  form,
  path,
  label,
  options,
}: {
  form: UseFormReturn<T, unknown, unknown>;
  path: Path<T>;
  label: string;
  options: TextOptions;
}) {
  const error = useFieldError(form, path);
  return (
    <Field
      path={path}
      label={label}
      hint={options.hint}
      error={error}
      required={options.required ?? false}
      className={options.className}
    >
      {(control) =>
        options.rows ? (
          <textarea
            {...control}
            {...form.register(path)}
            rows={options.rows}
            maxLength={options.maxLength}
            lang={options.lang}
            className={INPUT}
          />
        ) : (
          <input
            {...control}
            {...form.register(path)}
            type={options.type ?? 'text'}
            maxLength={options.maxLength}
            autoComplete={options.autoComplete ?? 'off'}
            inputMode={options.inputMode}
            placeholder={options.placeholder}
            lang={options.lang}
            className={INPUT}
          />
        )
      }
    </Field>
  );
}

/** A text field as one row of a tab's table: its path, its label and its options. */
export type TextFieldRow<T extends FieldValues> = readonly [Path<T>, string, TextOptions];

/** A group's text fields, drawn from their rows in order. */
export function TextFields<T extends FieldValues>({
  form,
  rows,
}: {
  form: UseFormReturn<T, unknown, unknown>;
  rows: readonly TextFieldRow<T>[];
}) {
  return rows.map(([path, label, options]) => (
    <TextField key={path} form={form} path={path} label={label} options={options} />
  ));
}

/**
 * A number typed in French with its unit at the end of the box ('9 400,00 €', '60 cm'): a text
 * field with the decimal keyboard, since a number field shows '9400.00' whatever the language.
 */
export function UnitField<T extends FieldValues>({
  form,
  path,
  label,
  hint,
  unit,
  width = 'max-w-56',
  inputMode = 'decimal',
  whole,
}: {
  form: UseFormReturn<T, unknown, unknown>;
  path: Path<T>;
  label: string;
  hint?: string | undefined;
  unit: string;
  width?: string;
  inputMode?: 'decimal' | 'numeric';
  /** Whole numbers between these bounds (centimetres): a number field is right for them. */
  whole?: { min: number; max: number };
}) {
  const error = useFieldError(form, path);
  return (
    <Field path={path} label={label} hint={hint} error={error} required>
      {(control) => (
        <div className={`relative mt-1 ${width}`}>
          <input
            {...control}
            {...form.register(path)}
            {...(whole
              ? { type: 'number', min: whole.min, max: whole.max, step: 1 }
              : { type: 'text', maxLength: 16 })}
            inputMode={inputMode}
            autoComplete="off"
            className={`${INPUT} mt-0 pr-12 text-right tabular-nums`}
          />
          <span
            aria-hidden="true"
            className="pointer-events-none absolute inset-y-0 right-3 flex items-center text-black/70"
          >
            {unit}
          </span>
        </div>
      )}
    </Field>
  );
}
