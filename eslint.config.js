// @ts-check
import js from '@eslint/js';
import astro from 'eslint-plugin-astro';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Islands and client scripts run in the browser: they must never import server code (api/).
/** @type {import('eslint').Linter.RulesRecord} */
const serverFence = {
  'no-restricted-imports': [
    'error',
    {
      patterns: [
        {
          group: ['**/api/**', '**/api', '../../api/*'],
          message:
            'api/ is server-only: islands and client scripts get plain data through props or fetch.',
        },
      ],
    },
  ],
};

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'dist.*/',
      '.astro/',
      '.data/',
      '.cache/',
      'node_modules/',
      'test-results/',
      'playwright-report/',
      'api/db/schema.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  ...astro.configs.recommended,
  {
    // astro-eslint-parser predates projectService; it uses the classic project lookup.
    files: ['**/*.astro'],
    languageOptions: { parserOptions: { projectService: false, project: true } },
  },
  {
    // Client-side <script> blocks inside .astro files are virtual files the type service cannot see.
    files: ['**/*.astro/*.ts', '**/*.astro/*.js', '**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: [
      'src/islands/**',
      'src/scripts/**',
      'src/stores/**',
      '**/*.astro/*.ts',
      '**/*.astro/*.js',
    ],
    languageOptions: { globals: { ...globals.browser } },
    rules: serverFence,
  },
);
