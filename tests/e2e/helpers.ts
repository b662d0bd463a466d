// Helpers shared by the end-to-end specs: axe, console-error collection, hydration waits, and the
// `test` every spec uses, which fails on any Content Security Policy violation, and the bound of a
// wait for a publish.
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type BrowserContext, type Page } from '@playwright/test';

/**
 * How long a wait for a publish (a change of the back office reaching the public pages) may take
 * before the test fails: a bound on a failure, never a pace. A publish takes about 4 s on a quiet
 * two-core machine; during a clean-clone CI on a loaded host on 28 November 2026 its builds took
 * 24 to 65 s each, and a change made while one ran waited for it, then for its own: 120 s failed
 * a passing test there.
 */
export const PUBLISH_BOUND = { timeout: 480_000, intervals: [500] };

/**
 * Collects what the Content Security Policy refused in every page of `target` (issue 14): each
 * page reports its `securitypolicyviolation` events as console errors, which Chromium also logs
 * itself ("Refused to … because it violates the following Content Security Policy directive").
 */
export async function watchCsp(target: BrowserContext | Page): Promise<string[]> {
  const violations: string[] = [];
  target.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|^CSP violation/.test(message.text()))
      violations.push(`${message.location().url}: ${message.text()}`);
  });
  await target.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) =>
      console.error(
        `CSP violation: ${event.effectiveDirective} refused ${event.blockedURI || 'inline code'} (${event.sourceFile}:${event.lineNumber})`,
      ),
    );
  });
  return violations;
}

/**
 * Playwright's `test`, whose every test fails when a page of its browser context broke the
 * Content Security Policy — an inline script or style without its hash, a resource from elsewhere.
 * Pages in contexts a spec opens itself are watched by `preparePage`.
 */
export const test = base.extend<{ cspGuard: void; fontsAtOnce: void; leaveBlank: void }>({
  cspGuard: [
    async ({ context }, use) => {
      const violations = await watchCsp(context);
      await use();
      expect(violations, 'Content Security Policy violations').toEqual([]);
    },
    { auto: true },
  ],
  // Every page as on a repeat visit: the web fonts declared before the first paint, so what a
  // test reads or a screenshot captures (Playwright waits for document.fonts.ready) is in the
  // real faces. A first visit, which declares them only after `load` (docs/decisions/051), has
  // its own test in work-pages.spec.ts.
  fontsAtOnce: [
    async ({ context }, use) => {
      await context.addInitScript(fontsAtOnce);
      await use();
    },
    { auto: true },
  ],
  // The context and its first page are kept for the worker's next test (playwright.config.ts,
  // `reuseContext`), which Playwright resets by loading about:blank. A page the test left while
  // it was still on its way somewhere — a script's redirect after a sign-in — would interrupt that
  // load and fail the next test: each passing test leaves its pages on a blank document itself.
  // A failed one keeps its page, whose accessibility tree Playwright writes beside the error.
  leaveBlank: [
    async ({ context }, use, testInfo) => {
      await use();
      if (testInfo.status !== testInfo.expectedStatus) return;
      for (const page of context.pages()) await leave(page);
    },
    { auto: true },
  ],
});

/** Loads about:blank in `page`, again if the page's own navigation interrupted the first try. */
async function leave(page: Page): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await page.goto('about:blank');
      return;
    } catch (error) {
      if (page.isClosed()) return;
      if (attempt === 3) throw error;
    }
  }
}

/** What the head script reads to declare the fonts at once (astro.config.mjs, HEAD_SCRIPT). */
export function fontsAtOnce(): void {
  try {
    sessionStorage.setItem('galerie:fonts', '1');
  } catch {
    // A page without storage (about:blank) declares them after load.
  }
}

/**
 * WCAG 2.0–2.2 A/AA and axe's best practices. `wcag22aa` must be named: its rule (target-size,
 * 24 × 24 px) is off unless a tag asks for it.
 */
export const AXE_TAGS = [
  'wcag2a',
  'wcag2aa',
  'wcag21a',
  'wcag21aa',
  'wcag22aa',
  'best-practice',
] as const;

/**
 * Axe on the page, run inside it ("legacy mode"). By default @axe-core/playwright opens a blank
 * page in the context after every run to merge its frames' results, and that page's new renderer
 * cost Chromium more than the checks themselves: on /gallery at 1366 px, five runs took 2.7–2.8
 * CPU-s of Chromium and 0.4 of Node in the page against 3.8–4.9 and 1.2–1.3 (plus each blank
 * page's exited renderer) with the blank page, for the same 44 rules passed. What legacy mode
 * gives up is testing cross-origin frames, and no page of the shop has a frame: axe's own
 * `frame-tested` rule would list one it could not test among its incomplete results.
 *
 * Every rule runs, but only the violations — all the tests read — are reported node by node
 * (axe's `resultTypes`): axe then builds a selector and an HTML excerpt for one node per rule of
 * the other kinds instead of every node, and hands back ~60 KB instead of ~350 KB on /gallery.
 * Fifteen runs (five storefront pages, three rounds) took 8.1–8.4 s instead of 10.3–10.9 (29 Nov,
 * 2 cores).
 */
function axeOn(page: Page): AxeBuilder {
  return new AxeBuilder({ page }).setLegacyMode(true).options({ resultTypes: ['violations'] });
}

/** No axe violation on the page: of the tags above, or of axe's default rules (`tags: null`). */
export async function expectNoAxeViolations(
  page: Page,
  { tags = AXE_TAGS }: { tags?: readonly string[] | null } = {},
): Promise<void> {
  const axe = axeOn(page);
  const results = await (tags ? axe.withTags([...tags]) : axe).analyze();
  expect(
    results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  ).toEqual([]);
}

/**
 * Keeps the cookie banner out of the way and collects console errors (hydration mismatches…).
 * Refusals the tests cause on purpose — the API's 4xx (a second promo code, a wrong password, a
 * used link) and the emulator's 402 for a declined card — are logged by Chromium as failed loads
 * and left out.
 */
export async function preparePage(page: Page): Promise<string[]> {
  const errors: string[] = [];
  // CSP violations are console errors too: collected below, with the page's own report.
  await watchCsp(page);
  // Pages of contexts a spec opens itself, like the fixture's: the fonts at once.
  await page.addInitScript(fontsAtOnce);
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const { url } = message.location();
    if (message.text().startsWith('Failed to load resource') && /\/(api|emulator)\//.test(url))
      return;
    errors.push(message.text());
  });
  await page.addInitScript(() =>
    localStorage.setItem(
      'cookie-consent',
      JSON.stringify({ accepted: false, timestamp: 'x', version: '1.0' }),
    ),
  );
  return errors;
}

/** CONVENTIONS 10: wait for the islands to hydrate (Astro drops `ssr` from each), never for time. */
export async function hydrated(page: Page): Promise<void> {
  await expect(page.locator('astro-island')).not.toHaveCount(0);
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
}

/**
 * Opens a work's quick view as a visitor does (issue 25): the gallery, then its card. The card is
 * a link to the work's page; the gallery's script (run before `goto` resolves on `load`) turns the
 * click into the overlay and shows the work's own address. Returns the overlay.
 */
export async function openQuickView(page: Page, key: string, locale: 'fr' | 'en' = 'fr') {
  await page.goto(locale === 'en' ? '/en/gallery' : '/gallery');
  await page.locator(`#panel-original [data-open-work="${key}"]`).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await expect(page).toHaveURL(
    new RegExp(`${locale === 'en' ? '/en/works/' : '/oeuvres/'}${key}$`),
  );
  return dialog;
}

/** A guest's details as the checkout form asks them (French labels). */
export interface GuestBuyer {
  name: string;
  email: string;
  phone?: string;
  street: string;
  postalCode: string;
  city: string;
  /** ISO code of the country list. */
  country: string;
}

/**
 * From a cart holding the works: /panier → /commande, the guest's details, the terms accepted,
 * paid on the emulator with its test card; the success page's order number.
 */
export async function payAsGuest(page: Page, buyer: GuestBuyer): Promise<string> {
  await page.goto('/panier');
  await hydrated(page);
  await page.getByRole('link', { name: 'Passer la commande' }).click();
  await expect(page).toHaveURL(/\/commande$/);
  await hydrated(page);
  await page.getByRole('textbox', { name: 'Nom complet' }).fill(buyer.name);
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill(buyer.email);
  if (buyer.phone) await page.getByRole('textbox', { name: 'Téléphone' }).fill(buyer.phone);
  await page.getByRole('textbox', { name: 'Adresse', exact: true }).fill(buyer.street);
  await page.getByRole('textbox', { name: 'Code postal' }).fill(buyer.postalCode);
  await page.getByRole('textbox', { name: 'Ville' }).fill(buyer.city);
  await page.getByRole('combobox', { name: 'Pays' }).selectOption(buyer.country);
  await page.getByRole('checkbox', { name: /conditions générales de vente/ }).check();
  await page.getByRole('button', { name: /^Commander avec obligation de paiement · / }).click();
  await expect(page).toHaveURL(/\/emulator\/checkout\/cs_/);
  await page.locator('#card_number').fill('4242 4242 4242 4242');
  await page.locator('#expiry').fill('12 / 34');
  await page.locator('#cvc').fill('123');
  await page.getByRole('button', { name: /^Payer / }).click();
  await expect(page.getByRole('heading', { name: 'Paiement confirmé', level: 1 })).toBeVisible();
  return (await page.getByText(/^GS-\d{4}-\d{5}$/).textContent())!.trim();
}

/** On a phone, every link of the screen is a target at least 44 px tall (our aim, WCAG 2.5.5). */
export async function expectTallLinks(page: Page) {
  const short = await page.locator('main a').evaluateAll((links) =>
    links
      .filter((a) => a.getBoundingClientRect().width > 0 && !a.closest('.sr-only, [hidden]'))
      .filter((a) => a.getBoundingClientRect().height < 44 - 0.5)
      .map((a) => `${a.textContent?.trim()} ${Math.round(a.getBoundingClientRect().height)} px`),
  );
  expect(short, 'links under 44 px tall at 390 px').toEqual([]);
}
