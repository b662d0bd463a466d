// A print's stock as the pages show it: the number of prints left is named from LOW_STOCK_MAX
// down ("Plus que 3 exemplaires"), none above it. One rule for the prerendered gallery, the live
// availability script and the build's catalogue snapshot (api/build), which records a stock above
// the threshold as LOW_STOCK_MAX + 1 so a sale that changes nothing a page shows builds nothing.
export const LOW_STOCK_MAX = 3;

/** The prints left are worth naming. */
export const isLowStock = (stock: number): boolean => stock >= 1 && stock <= LOW_STOCK_MAX;

/** The stock a page can tell apart: exact up to the threshold, one value above it. */
export const shownStock = (stock: number): number => Math.min(stock, LOW_STOCK_MAX + 1);
