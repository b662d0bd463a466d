#!/usr/bin/env python3
"""Builds the site's one web font file (docs/decisions/011): Newsreader at weight 400, the Latin
and Latin Extended-A characters the site writes (French, English, the č of 'Kovač'), merged from
Fontsource's two subsets into ONE woff2, so every page preloads a single file. The output is
committed; this runs only when the face or the character set changes, with Debian's fontTools:

    apt-get install python3-fonttools python3-brotli
    npm install --no-save @fontsource-variable/newsreader
    /usr/bin/python3 scripts/subset-font.py

It also prints the metrics the fallback @font-face needs (src/styles/fonts.css).
"""
import io
import sys
from pathlib import Path

from fontTools.merge import Merger
from fontTools.subset import Options, Subsetter
from fontTools.ttLib import TTFont
from fontTools.varLib.instancer import instantiateVariableFont

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / 'node_modules/@fontsource-variable/newsreader/files'
OUT = ROOT / 'src/assets/fonts/newsreader-400.woff2'

# Basic Latin and Latin-1 (French, English, Portuguese, Spanish, German, Italian…), the Latin
# Extended-A letters of the names a European gallery meets (the č of 'Kovač', Polish, Czech,
# Hungarian, Turkish, Baltic macrons), and the punctuation and signs of the texts: ’ ‘ “ ” « » – —
# … · • € and the narrow no-break space of French typography. Kept small: every byte of this
# file is fetched before the first page's largest image (the LCP budget).
UNICODES = (
    list(range(0x20, 0x7F))
    + list(range(0xA0, 0x100))
    + [0x100, 0x101, 0x104, 0x105, 0x106, 0x107, 0x10C, 0x10D, 0x10E, 0x10F, 0x110, 0x111]
    + [0x112, 0x113, 0x118, 0x119, 0x11A, 0x11B, 0x11E, 0x11F, 0x12A, 0x12B, 0x130, 0x131]
    + [0x141, 0x142, 0x143, 0x144, 0x147, 0x148, 0x150, 0x151, 0x152, 0x153, 0x158, 0x159]
    + [0x15A, 0x15B, 0x15E, 0x15F, 0x160, 0x161, 0x164, 0x165, 0x16A, 0x16B, 0x16E, 0x16F]
    + [0x170, 0x171, 0x178, 0x179, 0x17A, 0x17B, 0x17C, 0x17D, 0x17E]
    + [0x2C6, 0x2DA, 0x2DC, 0x2010, 0x2011, 0x2013, 0x2014, 0x2018, 0x2019, 0x201A, 0x201C]
    + [0x201D, 0x201E, 0x2022, 0x2026, 0x2039, 0x203A, 0x202F, 0x20AC, 0x2122]
)


def static(path: Path) -> TTFont:
    font = TTFont(path)
    return instantiateVariableFont(font, {'wght': 400}) if 'fvar' in font else font


def main() -> None:
    parts = []
    for name in ['newsreader-latin-wght-normal.woff2', 'newsreader-latin-ext-wght-normal.woff2']:
        font = static(SOURCE / name)
        font.flavor = None
        buffer = io.BytesIO()
        font.save(buffer)
        buffer.seek(0)
        parts.append(buffer)
    merged = Merger().merge(parts)
    options = Options()
    # Kerning and the f-ligatures; the letters are precomposed, so no mark positioning is needed.
    options.layout_features = ['kern', 'liga', 'locl']
    options.name_IDs = ['*']
    options.notdef_outline = True
    options.hinting = False
    subsetter = Subsetter(options)
    subsetter.populate(unicodes=UNICODES)
    subsetter.subset(merged)
    merged.flavor = 'woff2'
    OUT.parent.mkdir(parents=True, exist_ok=True)
    merged.save(OUT)
    head, hhea, os2 = merged['head'], merged['hhea'], merged['OS/2']
    upm = head.unitsPerEm
    cmap = merged.getBestCmap()
    widths = merged['hmtx'].metrics
    # The average advance of lowercase text, weighted like English/French prose (capsize's way).
    sample = 'etaoinshrdlucmfwypvbgkjqxz'
    weights = [12.7, 9.1, 8.2, 7.5, 7.0, 6.7, 6.3, 6.1, 6.0, 4.3, 4.0, 2.8, 2.8, 2.4, 2.4, 2.0, 2.0, 1.9, 1.5, 1.0, 0.8, 0.2, 0.2, 0.1, 0.1, 0.1]
    avg = sum(widths[cmap[ord(c)]][0] * w for c, w in zip(sample, weights)) / sum(weights) / upm
    print(f'wrote {OUT.relative_to(ROOT)} ({OUT.stat().st_size} bytes, {len(cmap)} characters)')
    print(f'unitsPerEm={upm} ascender={hhea.ascent} descender={hhea.descent} lineGap={hhea.lineGap}')
    print(f'typoAscender={os2.sTypoAscender} typoDescender={os2.sTypoDescender} avgLowercaseWidth={avg:.4f}em')


if __name__ == '__main__':
    sys.exit(main())
