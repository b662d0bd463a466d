// The demo artist's portrait (issue 9: the about page shows the artist), drawn deterministically
// like the seed's artworks: the artist seen from behind, at work on a large canvas (one of her
// compositions) in a sunlit studio. Same code → identical bytes, so its URL (the master's sha256) is stable.
import sharp from 'sharp';
import { compositionSvg } from './compose.ts';

const W = 1200;
const H = 1500;

/** mulberry32 seeded with a constant: the same grain every time. */
function random(): () => number {
  let state = 0x5a5a1974;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function portraitSvg(): string {
  const rand = random();
  const grain: string[] = [];
  for (let i = 0; i < 1400; i++) {
    const x = rand() * W;
    const y = rand() * H;
    const a = rand() * Math.PI;
    const l = 3 + rand() * 7;
    grain.push(
      `<path d="M${(x - Math.cos(a) * l).toFixed(1)} ${(y - Math.sin(a) * l).toFixed(1)}L${(x + Math.cos(a) * l).toFixed(1)} ${(y + Math.sin(a) * l).toFixed(1)}" stroke="${rand() < 0.5 ? '#fff' : '#000'}" stroke-opacity="${(0.03 + rand() * 0.05).toFixed(2)}" stroke-width="1.5"/>`,
    );
  }
  // The canvas she works on: one of her compositions, nested as an inner SVG.
  const canvas = compositionSvg({
    seed: 'atelier-lisboa-grande-toile',
    palette: ['#c4512f', '#e9c46a', '#3f6f8f', '#f4ead8', '#1c2f3a', '#d69a3b'],
    width: 690,
    height: 900,
  })
    .replace(/^<svg[^>]*>/, '<svg x="90" y="190" width="690" height="900" viewBox="0 0 690 900">')
    .replaceAll('id="', 'id="c-')
    .replaceAll('url(#', 'url(#c-');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">
<defs>
  <linearGradient id="p-wall" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#ebe0cb"/><stop offset="1" stop-color="#b39374"/></linearGradient>
  <radialGradient id="p-window" cx="0.92" cy="0.08" r="0.8"><stop offset="0" stop-color="#fff7e2" stop-opacity="0.95"/><stop offset="1" stop-color="#fff7e2" stop-opacity="0"/></radialGradient>
  <linearGradient id="p-floor" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#7d6450"/><stop offset="1" stop-color="#4e3d31"/></linearGradient>
  <linearGradient id="p-figure" x1="0" y1="0" x2="1" y2="0.2"><stop offset="0" stop-color="#1f1b19"/><stop offset="0.75" stop-color="#2e2723"/><stop offset="1" stop-color="#5b4a3e"/></linearGradient>
  <filter id="p-soft" x="0" y="0" width="${W}" height="${H}" filterUnits="userSpaceOnUse"><feGaussianBlur stdDeviation="3"/></filter>
  <filter id="p-shadow" x="0" y="0" width="${W}" height="${H}" filterUnits="userSpaceOnUse"><feGaussianBlur stdDeviation="14"/></filter>
</defs>
<rect width="${W}" height="${H}" fill="url(#p-wall)"/>
<rect y="1240" width="${W}" height="${H - 1240}" fill="url(#p-floor)"/>
<rect width="${W}" height="${H}" fill="url(#p-window)"/>
<g filter="url(#p-shadow)" opacity="0.35"><rect x="110" y="215" width="690" height="900" fill="#3a2c22"/></g>
<g stroke="#5e4330" stroke-width="22" stroke-linecap="round">
  <path d="M250 1090 L190 1420"/><path d="M620 1090 L690 1420"/><path d="M435 150 L435 1380"/>
</g>
<rect x="70" y="1080" width="730" height="26" rx="4" fill="#6b4e38"/>
${canvas}
<rect x="90" y="190" width="690" height="900" fill="none" stroke="#f3ece0" stroke-width="6"/>
<g filter="url(#p-soft)">
  <path d="M760 1500 C770 1250 790 1010 812 860 C830 740 880 700 930 698 C1000 696 1050 740 1066 860 C1090 1040 1100 1280 1110 1500 Z" fill="url(#p-figure)"/>
  <path d="M905 612 L955 612 L962 705 L898 705 Z" fill="#2a2421"/>
  <ellipse cx="930" cy="540" rx="78" ry="94" fill="url(#p-figure)"/>
  <circle cx="968" cy="452" r="46" fill="#231d1a"/>
  <path d="M852 560 C860 500 900 458 962 470" stroke="#6e5a4b" stroke-width="6" fill="none" opacity="0.7"/>
  <path d="M850 760 C790 820 740 860 700 800 C680 770 690 720 708 690" stroke="#2a2421" stroke-width="62" fill="none" stroke-linecap="round" stroke-linejoin="round"/>
  <path d="M1050 800 C1070 900 1060 1000 1020 1060" stroke="#2a2421" stroke-width="58" fill="none" stroke-linecap="round"/>
  <path d="M1058 760 C1085 880 1092 1040 1100 1200" stroke="#7a6452" stroke-width="8" fill="none" opacity="0.6"/>
</g>
<path d="M712 688 L650 612" stroke="#c9a27c" stroke-width="9" stroke-linecap="round"/>
<path d="M650 612 L636 596" stroke="#c4512f" stroke-width="14" stroke-linecap="round"/>
<g transform="rotate(-12 1010 1090)">
  <ellipse cx="1010" cy="1090" rx="95" ry="60" fill="#d8c5a6"/>
  <circle cx="975" cy="1075" r="14" fill="#c4512f"/><circle cx="1012" cy="1062" r="12" fill="#e9c46a"/><circle cx="1047" cy="1080" r="13" fill="#3f6f8f"/><circle cx="1020" cy="1108" r="11" fill="#f4ead8"/>
</g>
${grain.join('\n')}
</svg>`;
}

/** The portrait as a JPEG master (quality 90, mozjpeg). */
export async function renderPortrait(): Promise<Buffer> {
  return sharp(Buffer.from(portraitSvg())).jpeg({ quality: 90, mozjpeg: true }).toBuffer();
}
