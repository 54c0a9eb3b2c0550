// Lint rules for the whole monorepo. The pure libs (csv-engine, domain) may not import framework,
// database, queue or UI packages: they are shared by api, worker and web.
import fs from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import globals from 'globals';

const frameworkImports = {
  patterns: [
    { group: ['@nestjs/*'], message: 'Pure libs must not import Nest.' },
    { group: ['typeorm', 'typeorm/*', 'pg'], message: 'Pure libs must not import the database.' },
    { group: ['bullmq', 'ioredis'], message: 'Pure libs must not import the queue or Redis.' },
    { group: ['react', 'react-dom', 'react/*', 'react-dom/*'], message: 'Pure libs must not import React.' },
  ],
};

// The contract's classes carry class-validator decorators: a value import would ship validation code to the
// browser. The api is a server app; the web app reads it over HTTP only.
const webImports = {
  paths: [
    {
      name: '@csv-mapper/contracts',
      allowTypeImports: true,
      message: 'The web app imports the contract with `import type` only.',
    },
  ],
  patterns: [
    {
      group: ['**/apps/api/**', '**/api/src/**', '@csv-mapper/api', '@csv-mapper/api/*'],
      message: 'The web app never imports apps/api: read the api over HTTP.',
    },
  ],
};

// Web feature zones (issue 29): the code flows one way, app → pages → features → shared (components, hooks,
// lib). A feature folder (apps/web/src/features/X) imports no other feature and no page or app code; the
// page that needs two features composes them (pages/csv-mapper: mapper + batches + review), and what two
// features share moves to lib/components/hooks. No path aliases in the web app, so an import into another
// feature is relative: up out of this one ('../../', also via '../../../features/') into a sibling's name.
const webFeatures = fs
  .readdirSync(new URL('./apps/web/src/features', import.meta.url), { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name);
// Known imports across features not yet lifted into shared code, file by file: [file, the feature it reads].
const crossFeatureDebts = [
  ['apps/web/src/features/teams/components/team-read-only-banner.tsx', 'account'], // reads the profile
  ['apps/web/src/features/saved-mappings/components/history-settings.tsx', 'mapper'], // DuplicatesField
];
function featureZone(feature, files, allowed = []) {
  const others = webFeatures.filter((f) => f !== feature && !allowed.includes(f));
  return {
    files,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          ...webImports,
          patterns: [
            ...webImports.patterns,
            {
              regex: `^(?:\\.\\./)+(?:features/)?(?:${others.join('|')})(?:/|$)`,
              message: `features/${feature} imports no other feature: let the page compose them, or move the shared code to lib, components or hooks.`,
            },
            {
              regex: '^(?:\\.\\./)+(?:app|pages)(?:/|$)',
              message: 'Features import no page or app code (app → pages → features → shared).',
            },
          ],
        },
      ],
    },
  };
}
const featureZones = [
  ...webFeatures.map((f) => featureZone(f, [`apps/web/src/features/${f}/**/*.{ts,tsx}`])),
  ...crossFeatureDebts.map(([file, allowed]) => featureZone(file.split('/')[4], [file], [allowed])),
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'test-output/**',
      'coverage/**',
      'bench/.data/**',
      'apps/api/src/docs/openapi-metadata.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: { 'no-restricted-imports': ['error', webImports] },
  },
  ...featureZones,
  {
    files: ['libs/csv-engine/**/*.ts', 'libs/domain/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', frameworkImports] },
  },
  // libs/rules: the value rules the engine and the browser share. The web app bundles it, so it imports
  // nothing at run time but the engine's import-free yes/no list: no Node built-ins, no packages.
  {
    files: ['libs/rules/src/**/*.ts'],
    ignores: ['libs/rules/src/**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!\\.|@csv-mapper/contracts$)',
              message:
                'libs/rules runs in the browser: no packages or Node built-ins (contracts as types only).',
            },
            {
              group: ['@csv-mapper/contracts'],
              allowTypeImports: true,
              message: 'libs/rules reads the contract as types only (import type).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['libs/csv-engine/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...frameworkImports.patterns,
            {
              group: ['@csv-mapper/*', '!@csv-mapper/contracts'],
              message: 'csv-engine depends on nothing in the repo at run time.',
            },
            {
              group: ['@csv-mapper/contracts'],
              allowTypeImports: true,
              message: 'csv-engine reads the mapping contract as types only (import type).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.cjs', '**/*.mjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
