// A new embedded database starts from a migrated template (issue 28 §2, docs/decisions/061): a
// PGlite data directory with every migration applied, dumped once per set of migrations and PGlite
// version (`npm install` makes it: scripts/postinstall.mjs, api/cli/db-template.ts), then unpacked
// into each new data folder instead of running `initdb` and replaying the migrations one by one.
// Where there is none for these migrations (installed without scripts, a migration added since),
// a new database is made as before; either way the server then runs the migrations, which find
// nothing left to apply on a template's copy. The integration tests clone the same file.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const MIGRATIONS = path.join(import.meta.dirname, 'migrations');
/** Beside the installed packages: the template belongs to the PGlite they hold. */
const TEMPLATE_DIR = path.join(
  import.meta.dirname,
  '..',
  '..',
  'node_modules',
  '.cache',
  'galerie',
);
const PREFIX = 'pglite-migrated-';

function pgliteVersion(): string {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  for (let dir = path.dirname(entry); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (!fs.existsSync(manifest)) continue;
    const { name, version } = JSON.parse(fs.readFileSync(manifest, 'utf8')) as {
      name?: string;
      version?: string;
    };
    if (name === '@electric-sql/pglite' && version) return version;
  }
  throw new Error('Cannot find the version of @electric-sql/pglite');
}

/** The migrations of this checkout, by content (names and text): a short hex digest. */
export function migrationsHash(): string {
  const hash = createHash('sha256');
  for (const file of fs.readdirSync(MIGRATIONS).sort())
    hash
      .update(file)
      .update('\0')
      .update(fs.readFileSync(path.join(MIGRATIONS, file)));
  return hash.digest('hex').slice(0, 16);
}

/**
 * The template's file for the migrations in this checkout and the installed PGlite: named by
 * their content, so a new migration or another PGlite never finds an older template.
 */
export function pgliteTemplateFile(): string {
  const key = createHash('sha256')
    .update(`pglite ${pgliteVersion()}\0${migrationsHash()}`)
    .digest('hex');
  return path.join(TEMPLATE_DIR, `${PREFIX}${key.slice(0, 16)}.tar.gz`);
}

/** The template for these migrations, when one was made. */
export function readPgliteTemplate(): Blob | undefined {
  try {
    return new Blob([fs.readFileSync(pgliteTemplateFile())]);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Keeps `file`, written whole under its final name, and drops the templates of older migrations. */
export function storePgliteTemplate(file: string, bytes: Uint8Array): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // Written whole then renamed: another process making it at the same time writes the same.
  const partial = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(partial, bytes);
  fs.renameSync(partial, file);
  for (const name of fs.readdirSync(path.dirname(file)))
    if (name.startsWith(PREFIX) && name.endsWith('.tar.gz') && name !== path.basename(file))
      fs.rmSync(path.join(path.dirname(file), name), { force: true });
}
