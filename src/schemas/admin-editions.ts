// The register of editions (« Registre des tirages », issue 26, docs/decisions/045): what the
// screen receives and the one decision it sends. Shared by api/editions/register.ts, the endpoints
// under /api/admin/editions and the screen.
import { z } from 'zod';
import type { EditionKind } from '../domain/editions.ts';

/** A number's state in the register; 'held' is a free number a payment in progress will take,
 * 'ea'/'hc' an artist's proof or a hors-commerce copy (not sold through the site). */
export type EditionEntryState = 'free' | 'held' | 'sold' | 'returned' | 'retired' | 'ea' | 'hc';

export interface EditionEntry {
  kind: EditionKind;
  number: number;
  label: string;
  state: EditionEntryState;
  orderId: string | null;
  orderNumber: string | null;
  buyer: string | null;
  email: string | null;
  /** Sold before the register existed (no order on the site to name). */
  beforeRegister: boolean;
  soldAt: string | null;
  returnedAt: string | null;
  returnReason: 'cancellation' | 'refund' | 'withdrawal' | null;
  releasedAt: string | null;
  retiredAt: string | null;
  /** The day of the sale in Paris ('26/11/2026'), empty when unknown. */
  soldDay: string;
  /** The return, the owner's decision and their days, in French ('retourné le …, remis en vente le …'). */
  notes: string;
}

export interface EditionRegister {
  work: {
    id: number;
    title: string;
    technique: string;
    dimensions: string;
    year: number | null;
    editionSize: number;
    ea: number;
    hc: number;
    stock: number;
    archived: boolean;
  };
  counts: { free: number; held: number; sold: number; returned: number; retired: number };
  entries: EditionEntry[];
}

export interface EditionSummary {
  id: number;
  title: string;
  /** Year, technique and size tell apart two prints of one title in the selector (issue 27 §6). */
  technique: string;
  dimensions: string;
  year: number | null;
  editionSize: number;
  ea: number;
  hc: number;
  stock: number;
  sold: number;
  returned: number;
  retired: number;
  held: number;
  free: number;
  archived: boolean;
}

export const RETURNED_DECISIONS = ['release', 'retire'] as const;
export type ReturnedDecision = (typeof RETURNED_DECISIONS)[number];

/** POST /api/admin/editions/:id/numbers/:number — what to do with a returned number. */
export const returnedDecisionSchema = z.strictObject({
  decision: z.enum(RETURNED_DECISIONS, { error: 'admin.editions.error.decision' }),
});

/** The path's work id and number: positive integers written plainly. */
export const editionPathId = z.coerce.number().int().positive().max(2_147_483_647);
export const editionPathNumber = z.coerce.number().int().positive().max(1_000_000);

/** GET /api/admin/editions/:id/export?format= */
export const editionExportQuerySchema = z.object({ format: z.enum(['csv', 'pdf']) });
