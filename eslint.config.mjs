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
  { ignores: ['**/node_modules/**', '**/dist/**', 'test-output/**', 'coverage/**', 'bench/.data/**'] },
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
