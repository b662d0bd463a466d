// The security screen's small forms (issue 27): one code or password field on react-hook-form with
// a kernel schema as resolver (src/schemas/second-factor.ts), its message — a translation key the
// screen's texts carry — under the field, the server's refusal on the field too.
import { useId, type ReactNode } from 'react';
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import type { ZodType } from 'zod';
import { INPUT, PRIMARY, type Translate } from '../ui/kit.tsx';

/** The kernel's schemas are written with zod/mini; the kit's form hook is typed with classic zod. */
export const formSchema = <T extends FieldValues>(schema: unknown) => schema as ZodType<T, T>;

export const SECTION = 'rounded-lg border border-black/10 bg-white p-5 md:p-6 space-y-4';

/** The one field: its form path, label, hint if any, and the input's attributes. */
export interface OneField<T extends FieldValues> {
  name: Path<T>;
  label: string;
  hint?: string;
  input: { type?: string; autoComplete: string; inputMode?: 'numeric'; maxLength?: number };
}

interface Props<T extends FieldValues> {
  t: Translate;
  form: UseFormReturn<T, unknown, unknown>;
  field: OneField<T>;
  /** The button's text, and whether its call is under way (the button is then disabled). */
  submit: { label: string; busy: boolean };
  onSubmit: (event?: React.BaseSyntheticEvent) => Promise<void>;
  children?: ReactNode;
}

export function OneFieldForm<T extends FieldValues>(props: Props<T>) {
  const { t, form, field, submit } = props;
  const { name } = field;
  const id = useId();
  const error = form.formState.errors[name]?.message;
  const message = typeof error === 'string' ? t(error) : '';
  const described = [field.hint ? `${id}-hint` : '', message ? `${id}-error` : '']
    .filter(Boolean)
    .join(' ');
  return (
    <form onSubmit={(event) => void props.onSubmit(event)} noValidate className="space-y-3">
      {props.children}
      <label htmlFor={id} className="block font-medium">
        {field.label}
      </label>
      <input
        id={id}
        required
        {...field.input}
        {...form.register(name)}
        aria-invalid={message ? true : undefined}
        aria-describedby={described || undefined}
        className={INPUT}
      />
      {field.hint && (
        <p id={`${id}-hint`} className="text-sm text-black/70">
          {field.hint}
        </p>
      )}
      <p id={`${id}-error`} role="alert" className="text-sm font-medium text-red-800 empty:hidden">
        {message}
      </p>
      <button type="submit" className={PRIMARY} disabled={submit.busy}>
        {submit.label}
      </button>
    </form>
  );
}
