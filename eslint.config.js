// @ts-check
import path from 'node:path';
import js from '@eslint/js';
import astro from 'eslint-plugin-astro';
import boundaries from 'eslint-plugin-boundaries';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

// The layer map (ARCHITECTURE "Layers, one direction each", CONVENTIONS 20, docs/decisions/034).
// A file belongs to the first entry whose folder holds it (paths from the repository root).
// tests/, bench/, scripts/, the root configs and the unit tests beside the code (*.test.ts) are
// free: the matrix does not run on them.
const BROWSER = ['src/islands', 'src/admin', 'src/scripts', 'src/stores'];
/** @type {[Layer, string[]][]} */
const LAYERS = [
  // Client <script> blocks of .astro files: ESLint lints them as virtual files below the .astro
  // file (src/layouts/Base.astro/0_0.ts), so this folder pattern takes them and leaves the
  // frontmatter to the server. `[.]`, not `.`: the plugin warns on a folder named like a file.
  ['browser', ['src/**/*[.]astro']],
  ['kernel', ['src/schemas', 'src/domain']],
  ['i18n', ['src/i18n']],
  ['assets', ['src/styles', 'src/assets']],
  ['server', ['src/pages', 'src/layouts', 'src/components', 'src/lib']],
  // Any other folder of src/ is browser code until listed otherwise (docs/decisions/015): a new
  // screen's folder is fenced without anyone remembering to add it.
  ['browser', [...BROWSER, 'src/*']],
  // What is left of src/ are its own files: middleware.ts, content.config.ts, env.d.ts.
  ['server', ['src']],
  ['api', ['api']],
];

// Packages that only run on the server, kept out of the browser's bundles. Node's builtins
// (`node:fs`, `fs`) are out for the browser without a list: the matrix allows it no 'core' module.
const SERVER_PACKAGES = [
  'pg',
  'kysely',
  'kysely-codegen',
  '@electric-sql/pglite',
  'stripe',
  'sharp',
  'nodemailer',
  'pino',
  '@node-rs/argon2',
  'pdf-lib',
  '@pdf-lib/fontkit',
  'compression',
  'file-type',
  '@astrojs/node',
];

// Who may import whom: each layer imports only the layers it names, and the packages `packages`
// allows ('any': every package and Node builtin; 'browser': every package but SERVER_PACKAGES,
// no builtin; a list: those packages only). Anything else fails, be it `import`, `export … from`
// or `import()`. The server imports browser code to render the islands.
/** @typedef {'browser' | 'kernel' | 'i18n' | 'assets' | 'server' | 'api'} Layer */
/** @type {Record<Layer, { layers: Layer[], packages: 'any' | 'browser' | string[] }>} */
const MATRIX = {
  browser: { layers: ['browser', 'kernel', 'i18n', 'assets'], packages: 'browser' },
  kernel: { layers: ['kernel'], packages: ['zod'] },
  i18n: { layers: ['i18n'], packages: [] },
  assets: { layers: [], packages: [] },
  server: { layers: ['server', 'browser', 'api', 'kernel', 'i18n', 'assets'], packages: 'any' },
  api: { layers: ['api', 'kernel'], packages: 'any' },
};

/** The matrix as eslint-plugin-boundaries policies; a later policy overrides an earlier one. */
const layerPolicies = Object.entries(MATRIX).flatMap(([layer, { layers, packages }]) => {
  const from = { element: { type: layer } };
  /** @type {(to: object) => object} */
  const allow = (to) => ({ from, allow: { to } });
  return [
    ...(layers.length > 0 ? [allow({ element: { type: layers } })] : []),
    ...(packages === 'any'
      ? [allow({ module: { origin: ['external', 'core'] } })]
      : packages === 'browser'
        ? [
            allow({ module: { origin: 'external' } }),
            { from, disallow: { to: { module: { origin: 'external', source: SERVER_PACKAGES } } } },
          ]
        : packages.length > 0
          ? [allow({ module: { origin: 'external', source: packages } })]
          : []),
  ];
});

const TESTS = ['**/*.test.ts', '**/*.test.tsx'];

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
    // The layer matrix above, on the application's code.
    files: ['src/**', 'api/**'],
    ignores: TESTS,
    plugins: { boundaries },
    settings: {
      'boundaries/elements': LAYERS.map(([type, pattern]) => ({
        type,
        pattern,
        partialMatch: false,
      })),
      // `import()` and `export … from` count as much as `import`.
      'boundaries/dependency-nodes': ['import', 'dynamic-import', 'export'],
      // TypeScript's resolution (package.json "imports" for #api/*, relative .ts), also from the
      // client <script> blocks of .astro files (see the resolver's header).
      'import/resolver': {
        [path.join(import.meta.dirname, 'scripts/eslint-import-resolver.mjs')]: {
          project: path.join(import.meta.dirname, 'tsconfig.json'),
        },
      },
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        { default: 'disallow', checkAllOrigins: true, policies: layerPolicies },
      ],
    },
  },
  {
    // Browser code runs in the browser: its globals are the browser's (the layers above).
    files: ['**/*.astro/*.ts', '**/*.astro/*.js', ...BROWSER.map((folder) => `${folder}/**`)],
    ignores: TESTS,
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // React's rules of hooks and exhaustive dependencies on every island (issue 27: stale
    // closures went unchecked).
    files: ['src/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
);
