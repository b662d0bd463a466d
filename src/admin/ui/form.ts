// Forms of the back office on react-hook-form with the kernel's zod schemas as resolver (issue 27,
// CONVENTIONS 19): `useAdminForm(schema, defaults)` and, when the server refuses, its field errors
// set on their fields with `applyServerErrors` (the rest goes to the form's banner).
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import {
  useForm,
  type FieldValues,
  type Path,
  type Resolver,
  type UseFormProps,
  type UseFormReturn,
} from 'react-hook-form';
// The core type: the kernel's schemas are zod/mini, some older ones classic zod; both are one.
import type * as core from 'zod/v4/core';
import { errorFields, errorMessage } from '../query.tsx';

/**
 * A react-hook-form on `schema`, or on the schema `schema()` resolves to: a screen that need not
 * carry zod on its first load (the settings, issue 27's 120 KB) hands a loader, called once, when
 * the form is first checked; the result is the same resolver.
 */
export function useAdminForm<S extends core.$ZodType<FieldValues, FieldValues>>(
  schema: S | (() => Promise<S>),
  options: Omit<UseFormProps<core.input<S>, unknown, core.output<S>>, 'resolver'> = {},
): UseFormReturn<core.input<S>, unknown, core.output<S>> {
  const [resolver] = useState(() => {
    if (typeof schema !== 'function') return zodResolver(schema as never) as never;
    let loaded: Promise<ReturnType<typeof zodResolver>> | null = null;
    const lazy: Resolver<core.input<S>, unknown, core.output<S>> = async (values, context, o) => {
      loaded ??= schema().then((s) => zodResolver(s as never));
      return ((await loaded) as never as typeof lazy)(values, context, o);
    };
    return lazy;
  });
  return useForm<core.input<S>, unknown, core.output<S>>({
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    ...options,
    resolver,
  });
}

/**
 * Puts the server's field errors on their fields (focusing the first) and returns the message for
 * the banner when the error named no field of this form.
 */
export function applyServerErrors<T extends FieldValues>(
  form: UseFormReturn<T, unknown, unknown>,
  error: unknown,
): string | null {
  const fields = Object.entries(errorFields(error));
  fields.forEach(([name, message], index) =>
    form.setError(name as Path<T>, { type: 'server', message }, { shouldFocus: index === 0 }),
  );
  return fields.length > 0 ? null : errorMessage(error);
}
