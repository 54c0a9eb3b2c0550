import { defineConfig } from '@playwright/test';

// Debian's Chromium, never a downloaded browser. The stack is started by e2e/run.js (E2E_BASE_URL).
// Two workers, every test on its own (each signs up its own user). billing.spec moves the simulated billing
// clock, which is one for the whole database: every open checkout and subscription of the tests running beside
// it would expire or renew, so its tests run last, one after another, once the others are done.
const CLOCK = /billing\.spec\.ts$/;
export default defineConfig({
  testDir: './tests',
  outputDir: '../test-output/e2e/results',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: true,
  workers: 2,
  retries: 0,
  reporter: [['list']],
  projects: [
    { name: 'parallel', testIgnore: CLOCK },
    { name: 'billing-clock', testMatch: CLOCK, dependencies: ['parallel'], fullyParallel: false, workers: 1 },
  ],
  use: {
    baseURL: process.env.E2E_BASE_URL,
    browserName: 'chromium',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-dev-shm-usage',
      ],
    },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
});
