// Where media masters live. Local disk under DATA_DIR today; an S3-compatible store can implement
// the same interface when the site runs on more than one machine.
import fs from 'node:fs/promises';
import path from 'node:path';
import { loadConfig } from '../config.ts';

export interface MediaStorage {
  put(key: string, bytes: Buffer): Promise<void>;
  get(key: string): Promise<Buffer>;
  exists(key: string): Promise<boolean>;
  remove(key: string): Promise<void>;
}

const SAFE_KEY = /^[a-z0-9][a-z0-9._/-]*$/;

export function diskStorage(root: string): MediaStorage {
  const resolve = (key: string): string => {
    if (!SAFE_KEY.test(key) || key.includes('..')) throw new Error(`Invalid media key: ${key}`);
    return path.join(root, key);
  };
  return {
    async put(key, bytes) {
      const file = resolve(key);
      await fs.mkdir(path.dirname(file), { recursive: true });
      // Write then rename: a reader never sees half a file.
      const tmp = `${file}.${process.pid}.tmp`;
      await fs.writeFile(tmp, bytes);
      await fs.rename(tmp, file);
    },
    get: (key) => fs.readFile(resolve(key)),
    remove: (key) => fs.rm(resolve(key), { force: true }),
    async exists(key) {
      try {
        await fs.access(resolve(key));
        return true;
      } catch {
        return false;
      }
    },
  };
}

/** The media of the configured DATA_DIR: masters and their variants' folder. */
export function configuredMedia(): { storage: MediaStorage; variantsDir: string } {
  const mediaDir = path.join(loadConfig().dataDir, 'media');
  return { storage: diskStorage(mediaDir), variantsDir: path.join(mediaDir, 'variants') };
}
