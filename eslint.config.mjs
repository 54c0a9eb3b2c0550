// Lint rules for the whole monorepo. The pure libs (csv-engine, domain) may not import framework,
// database, queue or UI packages: they are shared by api, worker and web.
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
    rules: {
      // The contract's classes carry class-validator decorators: a value import would ship validation code
      // to the browser. The api is a server app; the web app reads it over HTTP only.
      'no-restricted-imports': [
        'error',
        {
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
        },
      ],
    },
  },
  {
    files: ['libs/csv-engine/**/*.ts', 'libs/domain/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', frameworkImports] },
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
