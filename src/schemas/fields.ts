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

/** Row ids are PostgreSQL `integer`s (api/db/schema.ts): anything above is no row of ours. */
export const INT4_MAX = 2_147_483_647;

/**
 * The row id a path segment names ('12'), or null: decimal digits only, 1 to INT4_MAX — never a
 * number the database would refuse (22003) nor one `Number()` reads loosely ('1e3', '0x10', ' 7').
 */
export function pathRowId(raw: string | undefined): number | null {
  if (raw === undefined || !/^[1-9][0-9]{0,9}$/.test(raw)) return null;
  const id = Number(raw);
  return id <= INT4_MAX ? id : null;
}
