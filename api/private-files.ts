// What the shop keeps on disk is its owner's only (issue 24, break 5): the embedded database, the
// image masters, mails written as files (reset and invitation links), backups (password hashes,
// personal data). PGlite writes its files 0666 whatever the umask, so a umask alone is not
// enough: the folders are made 0700 — no other local user can even look inside — and every file
// under them 0600, at every start, and the process's own umask is 077 from then on.
import fs from 'node:fs';
import path from 'node:path';
import { isMainThread } from 'node:worker_threads';

/** The umask of a server and of the command-line tools: nothing for group or others. */
export const PRIVATE_UMASK = 0o077;

export interface PrivateReport {
  /** Folders and files whose mode was corrected. */
  fixed: string[];
}

/**
 * Makes `dir` (created when missing) and everything under it owner-only: folders 0700 at most,
 * files without any group or other bit. Symbolic links are neither followed nor changed.
 */
export function makePrivate(dir: string): PrivateReport {
  const fixed: string[] = [];
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const visit = (entry: string, stat: fs.Stats) => {
    if (stat.isSymbolicLink()) return;
    if ((stat.mode & 0o077) !== 0) {
      fs.chmodSync(entry, stat.mode & 0o700);
      fixed.push(entry);
    }
    if (!stat.isDirectory()) return;
    for (const name of fs.readdirSync(entry)) {
      const child = path.join(entry, name);
      try {
        visit(child, fs.lstatSync(child));
      } catch (error) {
        // A file removed meanwhile (PGlite's temporary files) needs no protecting.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
  };
  visit(dir, fs.lstatSync(dir));
  return { fixed };
}

/** The process's umask becomes PRIVATE_UMASK; then each folder is made private. */
export function keepPrivate(dirs: readonly string[]): PrivateReport {
  // A worker thread (a test runner's) may not change the process's umask; its folders still are.
  if (isMainThread) process.umask(PRIVATE_UMASK);
  const fixed: string[] = [];
  for (const dir of new Set(dirs.map((d) => path.resolve(d))))
    fixed.push(...makePrivate(dir).fixed);
  return { fixed };
}
