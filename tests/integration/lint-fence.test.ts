// The lint fence (docs/decisions/015) is a rule by default: a new file anywhere under src/ that
// runs in the browser — an island, a future src/admin screen — may not import the server's api/.
import fs from 'node:fs/promises';
import path from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';
import { testDbKind } from '../helpers/db.ts';

const root = path.resolve(import.meta.dirname, '..', '..');
const probes = [
  'src/islands/FenceProbe.tsx',
  'src/admin/FenceProbe.tsx',
  'src/admin/screens/fence-probe.ts',
  'src/schemas/fence-probe.ts',
];

/** The folders from `first` (the first one mkdir made) down to `last`. */
function ancestors(first: string, last: string): string[] {
  const dirs = [last];
  while (dirs[0] !== first && dirs[0] !== path.dirname(dirs[0]!))
    dirs.unshift(path.dirname(dirs[0]!));
  return dirs;
}

// Linting does not depend on the database kind: run once.
describe.skipIf(testDbKind() !== 'pglite')('the lint fence', () => {
  const created: string[] = [];
  afterAll(async () => {
    for (const probe of probes) await fs.rm(path.join(root, probe), { force: true });
    // Only the folders this test made, and only if nothing else is in them.
    for (const dir of created.reverse()) await fs.rmdir(dir).catch(() => {});
  });

  it('refuses api/ imports from browser code in any folder, old or new', async () => {
    for (const probe of probes) {
      const made = await fs.mkdir(path.dirname(path.join(root, probe)), { recursive: true });
      if (made) created.push(...ancestors(made, path.dirname(path.join(root, probe))));
      const depth = probe.split('/').length - 1;
      await fs.writeFile(
        path.join(root, probe),
        [
          "import { liveSettings } from '#api/settings/index.ts';",
          `import { getDb } from '${'../'.repeat(depth)}api/db/context.ts';`,
          'export const probe = [liveSettings, getDb];',
          '',
        ].join('\n'),
      );
    }
    const eslint = new ESLint({ cwd: root });
    const results = await eslint.lintFiles(probes);
    for (const result of results) {
      const fenced = result.messages.filter((m) => m.ruleId === 'no-restricted-imports');
      expect(fenced, path.relative(root, result.filePath)).toHaveLength(2);
      expect(fenced[0]?.message).toContain('api/ is server-only');
    }
  }, 120_000);

  it('lets server-only code import it', async () => {
    const eslint = new ESLint({ cwd: root });
    const [endpoint] = await eslint.lintFiles(['src/pages/api/admin/publish.ts']);
    expect(endpoint?.messages.filter((m) => m.ruleId === 'no-restricted-imports')).toEqual([]);
  }, 120_000);
});
