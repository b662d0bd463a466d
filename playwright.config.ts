// End-to-end tests against the real built server (api/server.ts) on system Chromium. No browser is
// ever downloaded. Three shops, each a real server on a fresh copy of the golden shop
// (tests/e2e/serve.ts, shops.ts), run side by side, so that what one project changes no other
// sees:
// - `chromium` and `storefront`: the storefront's specs, many at a time (the longest first);
// - `works`: the owner's walk through the works — it adds, hides, sells, deletes and reorders
//   them and reads the gallery's order — then the site-wide changes (a publish, maintenance, a
//   promo code switched off): one at a time;
// - `owner`: the owner's orders, customers, figures (which count every sale of their shop),
//   messages (which list every enquiry sent to their shop) and settings (maintenance, promo
//   codes), then the paperwork of their sales (documents.spec: invoices, credit notes,
//   certificates, and a certificate's public page): one at a time.
//
// The PostgreSQL pass of `npm test` (scripts/test.ts) runs only the tests tagged @postgres: the
// server's own path through the pg pool, which no PGlite run exercises (the reasons:
// tests/postgres.ts). Nothing a page shows depends on the database kind.
import { existsSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';
import { SHOPS, siteUrlOf } from './tests/e2e/shops.ts';

const WORKS_SPECS = /(admin-0-works|live)\.spec\.ts$/;
const OWNER_SPECS =
  /(admin-(analytics|customers|editions|messages|orders|settings|shell)|certificates|documents)\.spec\.ts$/;
/** The storefront's longest specs: their project comes first, so none of them starts last. */
const LONG_SPECS = /(visual|accounts|commerce|withdrawal)\.spec\.ts$/;
const timings = process.env['TEST_TIMINGS_DIR'];

/**
 * Chromium's headless shell (Debian's `chromium-headless-shell`, the old headless mode, a binary
 * of its own since Chrome 132) when it is installed, as Playwright's own browsers do for headless
 * runs; else the whole browser. The shell took 26 % less CPU over the whole e2e suite (Chromium
 * 401–419 against 553–563 CPU-s, docs/decisions/067). `CHROMIUM_PATH` chooses either; a
 * `--headed` run needs `CHROMIUM_PATH=/usr/bin/chromium`.
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
const executablePath =
  process.env['CHROMIUM_PATH'] ??
  (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');
const isShell = executablePath.endsWith('headless-shell');

const chromium = {
  ...devices['Desktop Chrome'],
  channel: undefined,
  launchOptions: {
    executablePath,
    args: [
      // The whole browser's headless mode; the shell has only its own.
      ...(isShell ? [] : ['--headless=new']),
      // Glyphs placed as the whole browser places them: by default the shell hints them, which
      // changes text widths, wraps some lines elsewhere and fails the visual baselines (made by
      // the whole browser). With this switch the baselines pass on either binary.
      '--font-render-hinting=none',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  },
};

const server = (port: number) => ({
  command: 'node tests/e2e/serve.ts',
  url: `${siteUrlOf(port)}/api/health`,
  // E2E_RUN: this run (Playwright's process), whose servers share one PostgreSQL template.
  env: { E2E_SHOP_PORT: String(port), E2E_RUN: process.env['E2E_RUN'] ?? String(process.pid) },
  // A bound on a failure: the first run after a change makes the golden shop first.
  timeout: 600_000,
  reuseExistingServer: false,
  stdout: 'pipe' as const,
  stderr: 'pipe' as const,
  gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 10_000 },
});

const allProjects = [
  {
    name: 'works',
    shop: SHOPS.works,
    testMatch: WORKS_SPECS,
    fullyParallel: false,
    workers: 1,
    use: { ...chromium, baseURL: siteUrlOf(SHOPS.works) },
  },
  {
    name: 'owner',
    shop: SHOPS.owner,
    testMatch: OWNER_SPECS,
    fullyParallel: false,
    workers: 1,
    use: { ...chromium, baseURL: siteUrlOf(SHOPS.owner) },
  },
  {
    // The name is part of the visual baselines' file names (visual.spec.ts-snapshots).
    name: 'chromium',
    shop: SHOPS.shop,
    testMatch: LONG_SPECS,
    use: { ...chromium, baseURL: siteUrlOf(SHOPS.shop) },
  },
  {
    // The rest of the storefront's specs, on the same shop.
    name: 'storefront',
    shop: SHOPS.shop,
    testIgnore: [WORKS_SPECS, OWNER_SPECS, LONG_SPECS],
    use: { ...chromium, baseURL: siteUrlOf(SHOPS.shop) },
  },
];
const only = process.env['E2E_PROJECTS']?.split(',');
const projects = allProjects.filter((p) => !only || only.includes(p.name));

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  forbidOnly: !!process.env['CI'],
  retries: 0,
  // One worker each for the one-at-a-time projects, the storefront the rest (two cores).
  workers: 3,
  reporter: [
    ['list'],
    ...(timings
      ? [
          [
            'json',
            { outputFile: `${timings}/e2e-${process.env['TEST_PASS'] ?? 'embedded'}.json` },
          ] as const,
        ]
      : []),
  ],
  // One folder per first port, so two suites side by side keep their traces and screenshots.
  outputDir: process.env['E2E_PORT'] ? `test-results/${process.env['E2E_PORT']}` : 'test-results',
  // Bounds on a failure, never a pace a passing test must keep: the same for every test and
  // assertion, wide enough for two copies of the suite on two loaded cores (issue 23). A test of
  // the works waits for up to seven publishes, each up to a minute on a loaded host (helpers.ts,
  // PUBLISH_BOUND): twenty minutes before a test is called stuck.
  timeout: 1_200_000,
  expect: { timeout: 60_000 },
  // No trace by default: recording one (every action's DOM snapshot, passing test or not) cost
  // 15 % of the stage's CPU — 1 540 against 1 312 CPU-s for the whole suite, 820 against 707 s
  // (process accounting, 2026-11-28). A failed test keeps its screenshot and Playwright's error
  // context (the page's accessibility tree); E2E_TRACE=1 keeps its trace too, to debug one.
  use: {
    trace: process.env['E2E_TRACE'] ? { mode: 'retain-on-failure', screenshots: false } : 'off',
    screenshot: 'only-on-failure',
    // One browser context per worker, reset between tests (cookies, cache, local and session
    // storage, IndexedDB, routes, init scripts, extra pages, viewport), instead of a new one per
    // test: on this machine Chromium spends about 2 CPU-s starting the first renderer of each new
    // context, and the storefront project cost 404 CPU-s of Chromium against 265 and 314 with
    // reuse (docs/decisions/059). A spec that needs a context of its own (other options, a second
    // visitor) still opens one; E2E_FRESH_CONTEXTS=1 gives every test a new one, to rule reuse out.
    reuseContext: !process.env['E2E_FRESH_CONTEXTS'],
  },
  // The one-at-a-time projects first: their worker starts at once, beside the storefront's.
  projects: projects.map(({ shop: _shop, ...project }) => project),
  // The shops of the projects that run (E2E_PROJECTS, set by the PostgreSQL pass), once each.
  webServer: [...new Set(projects.map((project) => project.shop))].map(server),
});
