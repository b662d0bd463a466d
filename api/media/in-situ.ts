// The seed's "in situ" views (issue 25): a painting hung on a gallery wall above a bench, drawn at
// its real size from its dimensions (a 45-cm bench for scale) ("120 x 100 cm": height × width), so a collector sees how large
// it is. Deterministic: the same painting and dimensions give the same bytes.
import sharp from 'sharp';
import { parseDimensions } from '../../src/domain/dimensions.ts';

const WIDTH = 1500;
const HEIGHT = 1000;
/** The wall shown is 5 m wide (1500 px) and 3 m high above the floor line. */
const PX_PER_CM = WIDTH / 500;
const FLOOR = 900;
/** The painting's centre hangs at 150 cm, as galleries hang. */
const CENTRE_CM = 150;
/** A bench in front of the wall, off to the right: 45 cm high, 150 cm long. */
const BENCH = WIDTH / 2 + 330;

export async function renderInSitu(painting: Buffer, dimensions: string): Promise<Buffer> {
  const size = parseDimensions(dimensions);
  if (!size) throw new Error(`renderInSitu: unreadable dimensions ${JSON.stringify(dimensions)}`);
  const w = Math.round(size.widthCm * PX_PER_CM);
  const h = Math.round(size.heightCm * PX_PER_CM);
  const left = Math.round((WIDTH - w) / 2);
  const top = Math.round(FLOOR - CENTRE_CM * PX_PER_CM - h / 2);
  const room = `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}">
<defs>
  <linearGradient id="wall" x1="0" y1="0" x2="1" y2="0.3"><stop offset="0" stop-color="#ece7df"/><stop offset="0.55" stop-color="#f5f1ea"/><stop offset="1" stop-color="#e2dcd2"/></linearGradient>
  <linearGradient id="floor" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#a08363"/><stop offset="1" stop-color="#7a604a"/></linearGradient>
  <filter id="blur" x="-20%" y="-20%" width="140%" height="140%"><feGaussianBlur stdDeviation="9"/></filter>
</defs>
<rect width="${WIDTH}" height="${FLOOR}" fill="url(#wall)"/>
<rect y="${FLOOR}" width="${WIDTH}" height="${HEIGHT - FLOOR}" fill="url(#floor)"/>
<rect y="${FLOOR - 6}" width="${WIDTH}" height="6" fill="#ddd6cb"/>
<rect x="${left + 6}" y="${top + 12}" width="${w}" height="${h}" fill="#3b3129" opacity="0.35" filter="url(#blur)"/>
<g fill="#5a4636">
  <rect x="${BENCH - 225}" y="${FLOOR - 135 + 60}" width="450" height="27" rx="4"/>
  <rect x="${BENCH - 205}" y="${FLOOR - 108 + 60}" width="18" height="108"/>
  <rect x="${BENCH + 187}" y="${FLOOR - 108 + 60}" width="18" height="108"/>
</g>
<ellipse cx="${BENCH}" cy="${FLOOR + 66}" rx="260" ry="9" fill="#3b3129" opacity="0.25"/>
</svg>`;
  const hung = await sharp(painting).resize({ width: w, height: h, fit: 'fill' }).toBuffer();
  return sharp(Buffer.from(room))
    .composite([{ input: hung, left, top }])
    .jpeg({ quality: 88, mozjpeg: true })
    .toBuffer();
}
