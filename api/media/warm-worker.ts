// The image variants made away from the server (issue 28 §2): `node api/media/warm-worker.ts`,
// started by the server under `nice -n 19` (./variants.ts, warmVariantsAside), reads on stdin
// `{ mediaDir, cacheDir, masters: [{ sha256, width, storageKey }] }`, renders every variant not
// cached yet with the server's own encoder, each file written whole then renamed, and prints
// `{ "rendered": n }`. It opens no database: PGlite belongs to the server's process.
import { text } from 'node:stream/consumers';
import sharp from 'sharp';
import { diskStorage } from './storage.ts';
import { renderMissingVariants, type WarmMaster } from './variants.ts';

// One libvips thread: the other core stays the server's, whatever its scheduler does.
sharp.concurrency(1);

const input = JSON.parse(await text(process.stdin)) as {
  mediaDir: string;
  cacheDir: string;
  masters: WarmMaster[];
};
const rendered = await renderMissingVariants(
  diskStorage(input.mediaDir),
  input.cacheDir,
  input.masters,
);
process.stdout.write(JSON.stringify({ rendered }));
