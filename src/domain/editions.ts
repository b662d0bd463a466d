// How a copy of a print edition is named (issue 26, docs/decisions/045): '7/50' for the seventh
// numbered copy of fifty, 'EA 1/5' for the first of five artist's proofs (épreuves d'artiste),
// 'HC 1/2' for the first of two hors-commerce copies. The same label in French and English, as
// it is pencilled on the print. Pure: the server, the back office and the pages share it.

export const EDITION_KINDS = ['numbered', 'ea', 'hc'] as const;
export type EditionKind = (typeof EDITION_KINDS)[number];

export interface EditionCopyRef {
  kind: EditionKind;
  number: number;
  /** How many copies of that kind the edition has (the edition size, or the EA/HC count). */
  size: number;
}

const PREFIX: Record<EditionKind, string> = { numbered: '', ea: 'EA ', hc: 'HC ' };

export function editionLabel(copy: EditionCopyRef): string {
  return `${PREFIX[copy.kind]}${copy.number}/${copy.size}`;
}

/** Reads a label back ('7/50', 'EA 1/5', 'HC 1/2'); null for anything else. */
export function parseEditionLabel(label: string): EditionCopyRef | null {
  const match = /^(?:(EA|HC) )?([1-9]\d{0,5})\/([1-9]\d{0,5})$/.exec(label.trim());
  if (!match) return null;
  const number = Number(match[2]);
  const size = Number(match[3]);
  if (number > size) return null;
  const kind: EditionKind = match[1] === 'EA' ? 'ea' : match[1] === 'HC' ? 'hc' : 'numbered';
  return { kind, number, size };
}

/** "Tirage n° 7/50" / "Print no. 7/50"; artist's proofs and HC copies say what they are. */
export function editionCaption(copy: EditionCopyRef, locale: 'fr' | 'en'): string {
  const label = editionLabel(copy);
  if (copy.kind === 'ea')
    return locale === 'fr' ? `Épreuve d’artiste ${label}` : `Artist’s proof ${label}`;
  if (copy.kind === 'hc')
    return locale === 'fr' ? `Exemplaire hors commerce ${label}` : `Hors commerce copy ${label}`;
  return locale === 'fr' ? `Tirage n° ${label}` : `Print no. ${label}`;
}

/** The caption of a label as stored on an order line ('7/50' → 'Tirage n° 7/50'). */
export function editionCaptionOfLabel(label: string, locale: 'fr' | 'en'): string {
  const copy = parseEditionLabel(label);
  return copy ? editionCaption(copy, locale) : label;
}
