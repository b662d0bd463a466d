// The shops the end-to-end tests run against (playwright.config.ts): one real server per
// project, each on a fresh copy of the golden shop in .cache/e2e-data-<port> (tests/e2e/serve.ts).
// E2E_PORT moves them all, so a second copy of the suite can run beside the first.
import path from 'node:path';
import { test } from '@playwright/test';

const root = path.resolve(import.meta.dirname, '..', '..');

/** The first port; the shops take it and the next ones. */
export const E2E_PORT = Number(process.env['E2E_PORT'] ?? 4399);

export const SHOPS = {
  /** The storefront's specs, many at a time. */
  shop: E2E_PORT,
  /** The owner's walk through the works (the catalogue and its order), then the site-wide changes. */
  works: E2E_PORT + 1,
  /** The owner's orders, customers, figures and settings. */
  owner: E2E_PORT + 2,
} as const;

/** The address of the shop on `port`: its PUBLIC_SITE_URL, the one its version is built for. */
export const siteUrlOf = (port: number | string) => `http://127.0.0.1:${port}`;

/** The folder of the server on `port`: DATA_DIR is its data/, the built versions its dist/. */
export function shopDir(port: number | string): string {
  return path.join(root, '.cache', `e2e-data-${port}`);
}

/** The port of the shop the running test talks to. */
export function currentPort(): number {
  return Number(new URL(test.info().project.use.baseURL!).port);
}

/** Where the running test's server writes its mails (.eml files: SMTP_URL is empty). */
export function mailDir(): string {
  return path.join(shopDir(currentPort()), 'data', 'mail');
}

/** The running test's server's PostgreSQL database (when DATABASE_URL is set). */
export function databaseName(port: number = currentPort()): string {
  return `galerie_e2e_${port}`;
}
