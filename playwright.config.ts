// End-to-end tests against the real built server (api/server.ts) on system Chromium, with a
// fresh database of their own (tests/e2e/serve.ts). No browser is ever downloaded.
import { defineConfig, devices } from '@playwright/test';

const PORT = Number(process.env['E2E_PORT'] ?? 4399);
const baseURL = `http://127.0.0.1:${PORT}`;

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  forbidOnly: !!process.env['CI'],
  retries: 0,
  workers: 2,
  reporter: [['list']],
  // One folder per port, so two suites side by side keep their traces and screenshots.
  outputDir: process.env['E2E_PORT'] ? `test-results/${process.env['E2E_PORT']}` : 'test-results',
  timeout: 30_000,
  use: {
    baseURL,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
      args: [
        '--headless=new',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [
    {
      name: 'chromium',
      testIgnore: /(live|admin[\w-]*)\.spec\.ts$/,
      use: { ...devices['Desktop Chrome'], channel: undefined },
    },
    // Publishing and maintenance change the whole site: after everything else, alone.
    {
      name: 'live',
      testMatch: /(live|admin[\w-]*)\.spec\.ts$/,
      // One at a time: they change the whole site.
      fullyParallel: false,
      workers: 1,
      dependencies: ['chromium'],
      use: { ...devices['Desktop Chrome'], channel: undefined },
    },
  ],
  webServer: {
    command: 'node tests/e2e/serve.ts',
    url: `${baseURL}/api/health`,
    env: { E2E_PORT: String(PORT) },
    timeout: 300_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
  },
});
