// The one format of field errors, shared by every endpoint (api/http/endpoint.ts) and every form
// (src/islands/form-kit.tsx): the first message key per dotted field path (`customer.email`,
// `items.0.quantity`); `_` holds what belongs to no field (an unknown key, a body that is not an
// object).
export type FieldErrors = Record<string, string>;

export interface Issue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
  readonly code?: string;
}

export function fieldErrors(error: { readonly issues: readonly Issue[] }): FieldErrors {
  const fields: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.code === 'unrecognized_keys' ? '_' : issue.path.map(String).join('.') || '_';
    fields[key] ??= issue.message;
  }
  return fields;
}

/** What a zod schema, classic or mini, offers the endpoint helper and the form kit. */
export interface Schema<T> {
  safeParse(
    input: unknown,
  ): { success: true; data: T } | { success: false; error: { issues: readonly Issue[] } };
}
