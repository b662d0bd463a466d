// The currencies the shop can sell in (site setting `currency`): a plain list, so the back office's
// island can offer them without loading the full zod that views.ts uses.
export const CURRENCIES = ['EUR', 'USD', 'GBP'] as const;
