/**
 * @jest-config-loader ts-node
 * @jest-config-loader-options {"transpileOnly": true, "compilerOptions": {"module":"commonjs","moduleResolution":"bundler"}}
 */
import type { Config } from 'jest';

// Nest 12 and a few of its dependencies ship ESM only; swc turns them into CommonJS for Jest.
const esmOnly = [
  '@nestjs',
  'file-type',
  'strtok3',
  'token-types',
  '@tokenizer',
  'uint8array-extras',
  '@borewit',
  'load-esm',
  'commander',
];

const swcTs = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
  },
];
/** The web app's .tsx: React's automatic runtime, as Vite builds it. */
const swcTsx: [string, unknown] = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', tsx: true, decorators: true },
      transform: { legacyDecorator: true, react: { runtime: 'automatic' } },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
  },
];
const swcJs = ['@swc/jest', { module: { type: 'commonjs' }, jsc: { target: 'es2022' } }];

const moduleNameMapper = {
  '^@csv-mapper/contracts$': '<rootDir>/libs/contracts/src/index.ts',
  '^@csv-mapper/csv-engine$': '<rootDir>/libs/csv-engine/src/index.ts',
  '^@csv-mapper/domain$': '<rootDir>/libs/domain/src/index.ts',
  '^@csv-mapper/rules$': '<rootDir>/libs/rules/src/index.ts',
  '^@csv-mapper/db$': '<rootDir>/libs/db/src/index.ts',
  '^@csv-mapper/queue$': '<rootDir>/libs/queue/src/index.ts',
  '^@csv-mapper/billing$': '<rootDir>/libs/billing/src/index.ts',
};

function project(displayName: string, roots: string[], testMatch: string[], extra: Partial<Config> = {}) {
  return {
    displayName,
    rootDir: __dirname,
    roots,
    testMatch,
    testEnvironment: 'node',
    transform: { '^.+\\.tsx?$': swcTs, '^.+\\.m?js$': swcJs },
    transformIgnorePatterns: [`/node_modules/(?!(${esmOnly.join('|')})/)`],
    moduleNameMapper,
    ...extra,
  } as Config;
}

// Every integration file gets its own database (a copy of the run's migrated one) and Redis prefix
// (test/setup-env.ts, test/file-database.ts), so files run in parallel (`npm run test:jest`: 2 workers).
const integration = {
  globalSetup: '<rootDir>/test/global-setup.ts',
  globalTeardown: '<rootDir>/test/global-teardown.ts',
  setupFiles: ['<rootDir>/test/setup-env.ts'],
  setupFilesAfterEnv: ['<rootDir>/test/file-database.ts'],
};

/**
 * Files that must run alone, after the parallel ones (`npm run test:jest` runs this project with --runInBand):
 * they assert on elapsed time that a second file running beside them on a 2-core machine would skew — an answer
 * within 5 s with Redis down, sockets cut at the server timeouts (±1 s), a worker killed while its job is still
 * running and a shutdown within its grace period.
 */
const serial = [
  'apps/api/test/app.e2e-spec.ts',
  'apps/api/test/bounded-requests.e2e-spec.ts',
  'apps/api/test/slow-bodies.e2e-spec.ts',
  'apps/worker/test/reliability.int-spec.ts',
];
const integrationMatch = ['**/test/**/*.e2e-spec.ts', '**/test/**/*.int-spec.ts'];
const integrationRoots = [
  '<rootDir>/libs',
  '<rootDir>/apps/api',
  '<rootDir>/apps/worker',
  '<rootDir>/apps/cli',
];

const config: Config = {
  testTimeout: 60_000,
  projects: [
    project(
      'unit',
      ['<rootDir>/libs', '<rootDir>/apps/api', '<rootDir>/apps/worker', '<rootDir>/apps/cli'],
      ['**/*.spec.ts'],
    ),
    // apps/web: pure functions and reducers (no DOM); the contract is read as types only.
    project('web', ['<rootDir>/apps/web'], ['**/*.spec.ts', '**/*.spec.tsx'], {
      transform: { '^.+\\.tsx?$': swcTsx, '^.+\\.m?js$': swcJs as [string, unknown] },
    }),
    project('integration', integrationRoots, integrationMatch, {
      ...integration,
      testPathIgnorePatterns: ['/node_modules/', ...serial.map((f) => `<rootDir>/${f}`)],
    }),
    project(
      'serial',
      integrationRoots,
      serial.map((f) => `**/${f}`),
      integration,
    ),
  ],
};

export default config;
