// back office §2, §9: 'Stock faible' for a print with 2 left or fewer — the owner's warning, kept
// apart from the pages' threshold (./low-stock.ts). A module of its own so that the storefront's
// page script, which needs the pages' rule, shares no chunk with the back office's screens
// (docs/decisions/051).
export const LOW_STOCK = 2;
