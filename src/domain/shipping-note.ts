// How an original travels (issue 25, part 7): the owner may write a shipping note on a work (crate,
// insurance, lead time); without one, the work gets the default note of its size class, set in the
// settings' E-commerce tab. Size classes go by the longest side of the painted surface (height or
// width): what decides between a reinforced box, a wooden crate and an art shipper. Pure: the
// settings screen, the service and the work pages share it.

/** A work's size in centimetres (the shape src/domain/dimensions.ts reads from its text). */
interface Size {
  heightCm: number;
  widthCm: number;
}
export const SIZE_CLASSES = ['small', 'medium', 'large'] as const;
export type SizeClass = (typeof SIZE_CLASSES)[number];

export interface ShippingNotes {
  /** The longest side, in cm, up to which a work is small… */
  small_max_cm: number;
  /** …and medium; above it, large. */
  medium_max_cm: number;
  small: { fr: string; en: string };
  medium: { fr: string; en: string };
  large: { fr: string; en: string };
}

export function sizeClass(
  dimensions: Size,
  limits: Pick<ShippingNotes, 'small_max_cm' | 'medium_max_cm'>,
): SizeClass {
  const longest = Math.max(dimensions.heightCm, dimensions.widthCm);
  if (longest <= limits.small_max_cm) return 'small';
  return longest <= limits.medium_max_cm ? 'medium' : 'large';
}

/**
 * The note a work's page shows: the work's own when the owner wrote one, else its size's default;
 * null when there is neither (no own note and dimensions that do not read as a size), rather than
 * a guess about a crate.
 */
export function shippingNoteFor(
  own: string,
  dimensions: Size | null,
  notes: ShippingNotes,
  locale: 'fr' | 'en',
): string | null {
  if (own.trim()) return own.trim();
  if (!dimensions) return null;
  return notes[sizeClass(dimensions, notes)][locale].trim() || null;
}
