// @ts-check
import js from '@eslint/js';
import astro from 'eslint-plugin-astro';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// The fence (docs/decisions/015): code in src/ runs in the browser unless it is listed as
// server-only below, and browser code may not import the server's api/ — by default, so a new
// folder (src/admin/…) is fenced without anyone remembering to add it. src/schemas is shared by
// both sides and fenced too: it must stay pure.
/** @type {import('eslint').Linter.RulesRecord} */
const serverFence = {
  'no-restricted-imports': [
    'error',
    {
      patterns: [
        {
          // `#api/…` (the package.json alias) or any relative path through a folder named api.
          regex: '^(#api|(\\.\\.?/)+([^/]+/)*api)(/|$)',
          message:
            'api/ is server-only: browser code gets plain data through props or fetch, and shapes from src/schemas.',
        },
      ],
    },
  ],
};

/** What runs only on the server: pages and endpoints, layouts' and components' frontmatter, the
 * middleware, the content config and the build-time helpers of src/lib. */
const SERVER_ONLY = [
  'src/pages/**',
  'src/layouts/**/*.astro',
  'src/components/**/*.astro',
  'src/middleware.ts',
  'src/content.config.ts',
  'src/env.d.ts',
  'src/lib/cart-session.ts',
  'src/lib/catalog.ts',
  'src/lib/groups.ts',
  'src/lib/seo.ts',
  'src/**/*.test.ts',
];

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
    files: ['src/**'],
    languageOptions: { globals: { ...globals.browser } },
    rules: serverFence,
  },
  {
    files: SERVER_ONLY,
    languageOptions: { globals: { ...globals.node } },
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // Client <script> blocks inside .astro files run in the browser, whatever file holds them.
    files: ['**/*.astro/*.ts', '**/*.astro/*.js'],
    languageOptions: { globals: { ...globals.browser } },
    rules: serverFence,
  },
);
