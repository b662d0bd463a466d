// One labelled field of the work form, registered with react-hook-form: its error (the kernel's
// message key, or the server's words) under it, tied by aria-invalid and aria-describedby.
import { get, type FieldPath, type UseFormReturn } from 'react-hook-form';
import { FieldHint, FieldLabel, type Translate } from '../ui/kit.tsx';
import type { WorkFormValues } from './form-values.ts';

export const FIELD = 'mt-1 block min-h-11 w-full rounded border border-field bg-white px-3 py-2';

export type WorkForm = UseFormReturn<WorkFormValues, unknown, unknown>;
type Name = FieldPath<WorkFormValues>;

export const fieldDomId = (name: string) => `artwork-${name.replace(/\./g, '-')}`;

/** The props tying a control to its error, and the error itself. */
export function useFieldError(form: WorkForm, name: Name, t: Translate) {
  const message = get<unknown, { message?: string } | undefined>(
    form.formState.errors,
    name,
  )?.message;
  const id = `${fieldDomId(name)}-error`;
  return {
    aria: {
      'aria-invalid': message ? (true as const) : undefined,
      'aria-describedby': message ? id : undefined,
    },
    error: message ? (
      <p id={id} className="mt-1 text-sm text-red-800">
        {t(message)}
      </p>
    ) : null,
  };
}

interface Props {
  form: WorkForm;
  name: Name;
  label: string;
  t: Translate;
  required?: boolean;
  textarea?: boolean;
  inputMode?: 'numeric' | 'decimal';
  maxLength?: number;
  lang?: 'fr' | 'en';
  hint?: string;
  className?: string;
}

export default function FormField(props: Props) {
  const { form, name, label, t, required, textarea, inputMode, maxLength, lang, hint } = props;
  const { aria, error } = useFieldError(form, name, t);
  const id = fieldDomId(name);
  const describedBy = [aria['aria-describedby'], hint ? `${id}-hint` : undefined]
    .filter(Boolean)
    .join(' ');
  const control = {
    id,
    lang,
    maxLength,
    required,
    className: FIELD,
    'aria-invalid': aria['aria-invalid'],
    'aria-describedby': describedBy || undefined,
    ...form.register(name),
  };
  return (
    <div className={props.className}>
      <FieldLabel id={id} label={label} required={required} />
      {textarea ? (
        <textarea rows={4} {...control} />
      ) : (
        <input inputMode={inputMode} autoComplete="off" {...control} />
      )}
      <FieldHint id={id} hint={hint} />
      {error}
    </div>
  );
}
