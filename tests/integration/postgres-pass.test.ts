// The files the PostgreSQL pass hands to vitest (tests/postgres.ts `postgresTestFiles`): every file
// that names one of the pass's tags, however it is quoted or nested, and no other — checked on a
// made-up tree, then on ours against the tags our files use.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { POSTGRES_TAGS, postgresTestFiles } from '../postgres.ts';

const made = fs.mkdtempSync(path.join(os.tmpdir(), 'galerie-pg-pass-'));
afterAll(() => fs.rmSync(made, { recursive: true, force: true }));

function write(file: string, text: string) {
  const full = path.join(made, 'tests', 'integration', file);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  fs.writeFileSync(full, text);
}

// The tags by their names here, never written out quoted: this file names none.
const [concurrency, cluster, driver, server] = POSTGRES_TAGS.map((tag) => tag.name);

describe('the PostgreSQL pass’s files', () => {
  it('takes each test file that names a tag, in any quotes or folder, and leaves the others', () => {
    write('races.test.ts', `describe('x', { tags: ['${concurrency}'] }, () => {});`);
    write('driver.test.ts', `it("y", { tags: ["other", "${driver}"] }, () => {});`);
    write('deep/server.test.ts', `it(\`z\`, { tags: [\`${server}\`] }, () => {});`);
    write('plain.test.ts', `it('${cluster}s of works', () => {}); // ${cluster}, ${concurrency}`);
    write('helper.ts', `export const tags = ['${cluster}'];`);
    expect(postgresTestFiles(made)).toEqual([
      'tests/integration/deep/server.test.ts',
      'tests/integration/driver.test.ts',
      'tests/integration/races.test.ts',
    ]);
  });

  it('finds, in this checkout, a file for every tag the pass runs', () => {
    const root = path.resolve(import.meta.dirname, '..', '..');
    const files = postgresTestFiles(root);
    const texts = files.map((file) => fs.readFileSync(path.join(root, file), 'utf8'));
    for (const tag of POSTGRES_TAGS)
      expect(
        texts.some((text) => text.includes(`'${tag.name}'`)),
        tag.name,
      ).toBe(true);
    expect(files).toContain('tests/integration/two-nodes.test.ts');
    expect(files).not.toContain('tests/integration/postgres-pass.test.ts');
  });
});
