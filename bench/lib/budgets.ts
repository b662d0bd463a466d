// The budgets the storefront bench checks, kept as data in bench/budgets.json.
import fs from 'node:fs/promises';
import path from 'node:path';

export interface Viewport {
  name: string;
  width: number;
  height: number;
  deviceScaleFactor: number;
  mobile: boolean;
}

export interface Budgets {
  pages: string[];
  englishPrefix: string;
  /** French folders whose English pages have another name: a work's page (src/i18n ENGLISH_FOLDERS). */
  englishFolders?: Record<string, string>;
  javascriptGzipBytes: Record<string, number> & { default: number };
  lighthouse: {
    runsPerPage: number;
    quickPages: string[];
    minScores: Record<Category, number>;
    maxLcpMs: number;
    maxCls: number;
  };
  images: {
    galleryPage: string;
    cardWidth: number;
    cardAvifMedianBytes: number;
    firstViewBytes: number;
    viewports: Viewport[];
  };
  serving: {
    page: string;
    assetCacheControl: string;
    /** Issue 28: ours gzip ÷ nginx gzip on the same files, same pinning, same run. */
    minThroughputRatioGzip: number;
    /** Issue 28: p99 of our static page at the wrk connections below. */
    maxP99Ms: number;
    wrk: {
      threads: number;
      connections: number;
      durationSeconds: number;
      warmupSeconds: number;
      /** Interleaved rounds (nginx, ours gzip, ours br), each figure the median over them. */
      rounds: number;
      quickRounds: number;
    };
  };
}

export const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
export type Category = (typeof CATEGORIES)[number];

const REQUIRED = [
  'pages',
  'englishPrefix',
  'javascriptGzipBytes.default',
  'lighthouse.runsPerPage',
  'lighthouse.quickPages',
  ...CATEGORIES.map((c) => `lighthouse.minScores.${c}`),
  'lighthouse.maxLcpMs',
  'lighthouse.maxCls',
  'images.galleryPage',
  'images.cardWidth',
  'images.cardAvifMedianBytes',
  'images.firstViewBytes',
  'images.viewports',
  'serving.page',
  'serving.assetCacheControl',
  'serving.minThroughputRatioGzip',
  'serving.maxP99Ms',
  ...['threads', 'connections', 'durationSeconds', 'warmupSeconds', 'rounds', 'quickRounds'].map(
    (k) => `serving.wrk.${k}`,
  ),
];

export const BUDGETS_FILE = path.join(import.meta.dirname, '..', 'budgets.json');

export async function loadBudgets(): Promise<Budgets> {
  const budgets = JSON.parse(await fs.readFile(BUDGETS_FILE, 'utf8')) as Budgets;
  // A typo in the file must not pass as "no budget": every key the bench reads must be there.
  const at = (dotted: string) =>
    dotted
      .split('.')
      .reduce<unknown>(
        (node, key) =>
          node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined,
        budgets,
      );
  const missing = REQUIRED.filter((key) => at(key) === undefined);
  if (missing.length) throw new Error(`${BUDGETS_FILE} lacks ${missing.join(', ')}`);
  return budgets;
}

/** `/about` → `/en/about`; `/` → `/en/`; `/oeuvres/seuil` → `/en/works/seuil`. */
export function english(budgets: Budgets, page: string): string {
  if (page === '/') return `${budgets.englishPrefix}/`;
  const [from, to] =
    Object.entries(budgets.englishFolders ?? {}).find(([folder]) => page.startsWith(folder)) ?? [];
  const path = from && to ? `${to}${page.slice(from.length)}` : page;
  return `${budgets.englishPrefix}${path}`;
}

/** Every page in both languages, French first: `/`, `/en/`, `/about`, `/en/about`, … */
export function bothLanguages(budgets: Budgets, pages: string[]): string[] {
  return pages.flatMap((page) => [page, english(budgets, page)]);
}

/** The JavaScript budget of a page in either language. */
export function javascriptBudget(budgets: Budgets, page: string): number {
  const prefix = budgets.englishPrefix;
  const french = Object.entries(budgets.englishFolders ?? {}).map(([fr, en]) => [en, fr] as const);
  const unprefixed =
    page === `${prefix}/` ? '/' : page.startsWith(`${prefix}/`) ? page.slice(prefix.length) : page;
  const [from, to] = french.find(([folder]) => unprefixed.startsWith(folder)) ?? [];
  const base =
    page !== unprefixed && from && to ? `${to}${unprefixed.slice(from.length)}` : unprefixed;
  return budgets.javascriptGzipBytes[base] ?? budgets.javascriptGzipBytes.default;
}
