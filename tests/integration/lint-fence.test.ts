// The layer matrix of eslint.config.js (ARCHITECTURE "Layers, one direction each", CONVENTIONS 20,
// docs/decisions/034): one forbidden import of each kind is fed to the real config and must fail,
// and the allowed edges must pass. The probes are text linted under paths that do not exist, so
// nothing is written into the source tree.
import path from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { testDbKind } from '../helpers/db.ts';

const root = path.resolve(import.meta.dirname, '..', '..');

// The probes are in no TypeScript project, so the type-checked rules are off for them; the layer
// rule, its element map and its resolver are the real config's.
const eslint = new ESLint({ cwd: root, overrideConfig: [tseslint.configs.disableTypeChecked] });

/** The layer errors for `code` linted as `filePath`, which must parse. */
async function layerErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  expect(result, filePath).toBeDefined();
  expect(result!.messages.filter((m) => m.fatal).map((m) => m.message)).toEqual([]);
  return result!.messages
    .filter((m) => m.ruleId === 'boundaries/dependencies')
    .map((m) => m.message);
}

const importOf = (source: string) => `import * as probe from '${source}';\nexport { probe };\n`;
const dynamicImportOf = (source: string) => `export const load = () => import('${source}');\n`;
/** An .astro file whose client <script> runs `script` (the frontmatter is server code). */
const astroWith = ({ frontmatter = '', script = '' }) =>
  `---\n${frontmatter}\n---\n<h1>probe</h1>\n<script>\n${script}\nconsole.log('probe');\n</script>\n`;

const ISLAND = 'src/islands/Probe.tsx';
const SERVER_PACKAGES = [
  'pg',
  'kysely',
  '@electric-sql/pglite',
  'stripe',
  'sharp',
  'nodemailer',
  'pino',
  '@node-rs/argon2',
  'pdf-lib',
  'compression',
];

/** [what, file, code]: each must fail with exactly one layer error. */
const FORBIDDEN: [string, string, string][] = [
  ['browser → api by #api/*', ISLAND, importOf('#api/settings/index.ts')],
  ['browser → api by a relative path', ISLAND, importOf('../../api/db/context.ts')],
  ['browser → api by import()', ISLAND, dynamicImportOf('#api/settings/index.ts')],
  [
    'browser → api by export … from',
    ISLAND,
    "export { liveSettings } from '#api/settings/index.ts';\n",
  ],
  ['back office (src/admin) → api', 'src/admin/orders/Probe.tsx', importOf('#api/db/index.ts')],
  [
    'a new src/ folder is browser code until listed → api',
    'src/widgets/Probe.tsx',
    importOf('#api/settings/index.ts'),
  ],
  ['browser → node:fs', ISLAND, importOf('node:fs')],
  ['browser → a bare Node builtin', 'src/scripts/probe.ts', importOf('crypto')],
  ['browser → node:* by import()', 'src/stores/probe.ts', dynamicImportOf('node:path')],
  ...SERVER_PACKAGES.map((name): [string, string, string] => [
    `browser → ${name}`,
    ISLAND,
    importOf(name),
  ]),
  ['browser → a server package by import()', ISLAND, dynamicImportOf('pg')],
  ['browser → a package subpath', ISLAND, importOf('@electric-sql/pglite/contrib/pg_trgm')],
  ['browser → server-only src/lib', ISLAND, importOf('../lib/catalog.ts')],
  ['browser → a page', ISLAND, importOf('../pages/sitemap.xml.ts')],
  ['browser → the middleware', ISLAND, importOf('../middleware.ts')],
  ['kernel → api', 'src/domain/probe.ts', importOf('#api/config.ts')],
  ['kernel → api by a relative path', 'src/schemas/probe.ts', importOf('../../api/config.ts')],
  ['kernel → browser', 'src/domain/probe.ts', importOf('../islands/CartView.tsx')],
  ['kernel → a store', 'src/schemas/probe.ts', importOf('../stores/cart.ts')],
  ['kernel → server-only src/lib', 'src/schemas/probe.ts', importOf('../lib/catalog.ts')],
  ['kernel → i18n', 'src/domain/probe.ts', importOf('../i18n/index.ts')],
  ['kernel → a package other than zod', 'src/domain/probe.ts', importOf('react')],
  ['kernel → a Node builtin', 'src/schemas/probe.ts', importOf('node:crypto')],
  ['api → src/lib', 'api/orders/probe.ts', importOf('../../src/lib/catalog.ts')],
  ['api → src/islands', 'api/orders/probe.ts', importOf('../../src/islands/CartView.tsx')],
  ['api → src/pages', 'api/orders/probe.ts', importOf('../../src/pages/sitemap.xml.ts')],
  ['api → src/i18n', 'api/orders/probe.ts', importOf('../../src/i18n/index.ts')],
  ['api → the middleware by import()', 'api/probe.ts', dynamicImportOf('../src/middleware.ts')],
  [
    'an .astro client <script> → api by #api/*',
    'src/components/Probe.astro',
    astroWith({ script: "import { liveSettings } from '#api/settings/index.ts';" }),
  ],
  [
    'an .astro client <script> → api by a relative path',
    'src/layouts/Probe.astro',
    astroWith({ script: "import { loadConfig } from '../../api/config.ts';" }),
  ],
  [
    'an .astro client <script> → server-only src/lib',
    'src/components/pages/Probe.astro',
    astroWith({ script: "import { getArtworks } from '../../lib/catalog.ts';" }),
  ],
  [
    'an .astro client <script> → node:fs',
    'src/pages/probe.astro',
    astroWith({ script: "import fs from 'node:fs';" }),
  ],
];

/** [what, file, code]: each must pass without a layer error. */
const ALLOWED: [string, string, string][] = [
  ['api → src/schemas', 'api/orders/probe.ts', importOf('../../src/schemas/settings.ts')],
  ['api → src/domain', 'api/orders/probe.ts', importOf('../../src/domain/money.ts')],
  ['api → api, packages and Node', 'api/orders/probe.ts', importOf('kysely') + importOf('node:fs')],
  ['island → src/schemas', ISLAND, importOf('../schemas/cart.ts')],
  ['island → src/domain', ISLAND, importOf('../domain/order-status.ts')],
  ['island → i18n', ISLAND, importOf('../i18n/index.ts')],
  ['island → a store', ISLAND, importOf('../stores/cart.ts')],
  ['island → browser packages', ISLAND, importOf('react') + dynamicImportOf('chart.js')],
  ['kernel → zod and itself', 'src/schemas/probe.ts', importOf('zod/mini')],
  ['kernel → kernel', 'src/schemas/probe.ts', importOf('../domain/currencies.ts')],
  ['page → api', 'src/pages/probe.ts', importOf('#api/settings/index.ts')],
  ['page → an island it renders', 'src/pages/probe.ts', importOf('../islands/CartView.tsx')],
  ['server src/lib → api by a relative path', 'src/lib/probe.ts', importOf('../../api/config.ts')],
  ['the middleware → api', 'src/middleware-probe.ts', importOf('#api/config.ts')],
  [
    'an .astro frontmatter → api, its client <script> → browser code',
    'src/layouts/Probe.astro',
    astroWith({
      frontmatter: "import { loadConfig } from '#api/config.ts';\nconsole.log(loadConfig);",
      script: "import '../scripts/chrome.ts';",
    }),
  ],
];

// Linting does not depend on the database kind: run once.
describe.skipIf(testDbKind() !== 'pglite')('the layer matrix', () => {
  it.each(FORBIDDEN)('refuses %s', async (_what, file, code) => {
    expect(await layerErrors(file, code)).toHaveLength(1);
  });

  it.each(ALLOWED)('allows %s', async (_what, file, code) => {
    expect(await layerErrors(file, code)).toEqual([]);
  });
});
