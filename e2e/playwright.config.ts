import { defineConfig } from '@playwright/test';

// Debian's Chromium, never a downloaded browser. The stack is started by e2e/run.js (E2E_BASE_URL).
// Three workers, every test on its own (each signs up its own user): the tests wait on the servers and the
// browser as much as they compute, so a third worker shortens the run on 2 cores (6.0 -> 4.4 min measured).
// billing.spec moves the simulated billing clock, which is one for the whole database: every open checkout
// and subscription of the tests running beside it would expire or renew, so its tests run one after another
// against a stack with a database of its own (E2E_BILLING_BASE_URL), beside the others; listed first so its
// one worker starts on them at once instead of ending the run with them.
const CLOCK = /billing\.spec\.ts$/;
export default defineConfig({
  testDir: './tests',
  outputDir: '../test-output/e2e/results',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: true,
  workers: 3,
  retries: 0,
  reporter: [['list']],
  projects: [
    {
      name: 'billing-clock',
      testMatch: CLOCK,
      fullyParallel: false,
      workers: 1,
      use: { baseURL: process.env.E2E_BILLING_BASE_URL },
    },
    { name: 'parallel', testIgnore: CLOCK },
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
