#!/usr/bin/env python3
"""Builds the site's web font files.

- The headings' face (docs/decisions/011): Newsreader at weight 400, the Latin and Latin
  Extended-A characters the site writes (French, English, the č of 'Kovač'), merged from
  Fontsource's two subsets into ONE woff2, so every page fetches a single file (declared by the
  layouts' head script, after the first paint on a first visit: docs/decisions/051).
- The text face (docs/decisions/043): Instrument Sans, variable (weights 400–700 in one file), in
  two files: the Latin one every page fetches, and the few Latin Extended-A letters (the č of
  'Kovač') in a small second file, declared with its unicode-range (every page names the artist,
  so the head script loads it with the others). fontTools cannot merge variable fonts, and a static instance per weight would
  mean a download per weight.

The output is committed; this runs only when a face or the character set changes, with Debian's
fontTools (pass a face's name to rebuild only that one: newsreader, instrument-sans):

    apt-get install python3-fonttools python3-brotli
    npm install --no-save @fontsource-variable/newsreader @fontsource-variable/instrument-sans
    /usr/bin/python3 scripts/subset-font.py [newsreader|instrument-sans]

It also prints the metrics the fallback @font-face rules need (src/styles/fonts.css).
"""
import io
import os
import sys
from pathlib import Path

from fontTools.merge import Merger
from fontTools.subset import Options, Subsetter
from fontTools.ttLib import TTFont
from fontTools.varLib.instancer import instantiateVariableFont

ROOT = Path(__file__).resolve().parent.parent
# Where the Fontsource packages are (FONTSOURCE_DIR for an install outside the project).
FONTSOURCE = Path(os.environ.get('FONTSOURCE_DIR', ROOT / 'node_modules/@fontsource-variable'))
SOURCE = FONTSOURCE / 'newsreader/files'
FONTS = ROOT / 'src/assets/fonts'
OUT = FONTS / 'newsreader-400.woff2'

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


def newsreader() -> None:
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


# The text face's Latin file: Basic Latin, Latin-1, œ Œ and the same punctuation and signs as above.
TEXT_LATIN = (
    list(range(0x20, 0x7F))
    + list(range(0xA0, 0x100))
    + [0x131, 0x152, 0x153, 0x2C6, 0x2DA, 0x2DC, 0x2010, 0x2011, 0x2013, 0x2014, 0x2018, 0x2019]
    + [0x201A, 0x201C, 0x201D, 0x201E, 0x2022, 0x2026, 0x2039, 0x203A, 0x202F, 0x20AC, 0x2122]
    + [0x2212]
)
# Its second file: the Latin Extended-A letters of UNICODES that the Latin file lacks.
TEXT_EXT = sorted(set(c for c in UNICODES if 0x100 <= c < 0x180) - set(TEXT_LATIN))


def unicode_range(codes: list[int]) -> str:
    """'U+100-101,U+104-107,…' for the @font-face rule."""
    runs: list[list[int]] = []
    for c in sorted(codes):
        if runs and c == runs[-1][1] + 1:
            runs[-1][1] = c
        else:
            runs.append([c, c])
    return ','.join(f'U+{a:X}' if a == b else f'U+{a:X}-{b:X}' for a, b in runs)


# A weighted average advance including the space (about one character in six in prose), as
# capsize computes it: a sans's spaces differ from Arial's far more than its letters do, and lines
# wrap on the whole width.
LETTERS = 'etaoinshrdlucmfwypvbgkjqxz'
LETTER_WEIGHTS = [12.7, 9.1, 8.2, 7.5, 7.0, 6.7, 6.3, 6.1, 6.0, 4.3, 4.0, 2.8, 2.8, 2.4, 2.4, 2.0, 2.0, 1.9, 1.5, 1.0, 0.8, 0.2, 0.2, 0.1, 0.1, 0.1]
SPACE_WEIGHT = 18.5


def average_advance(font: TTFont) -> float:
    cmap = font.getBestCmap()
    widths = font['hmtx'].metrics
    total = sum(widths[cmap[ord(c)]][0] * w for c, w in zip(LETTERS, LETTER_WEIGHTS))
    total += widths[cmap[0x20]][0] * SPACE_WEIGHT
    return total / (sum(LETTER_WEIGHTS) + SPACE_WEIGHT) / font['head'].unitsPerEm


def instrument_sans() -> None:
    source = FONTSOURCE / 'instrument-sans/files'
    options = Options()
    # No kerning here, unlike the headings' face: this file is preloaded on every page, and its
    # variable kerning table is half of it (28 KB with, 15 KB without: +250 ms of simulated LCP
    # against +120 ms, measured). At text sizes the face's own spacing carries; 'tnum' keeps the
    # back office's tabular figures, 'case' the capitals' punctuation.
    options.layout_features = ['liga', 'locl', 'case', 'tnum']
    options.name_IDs = ['*']
    options.notdef_outline = True
    options.hinting = False
    for name, codes in [('latin', TEXT_LATIN), ('latin-ext', TEXT_EXT)]:
        font = TTFont(source / f'instrument-sans-{name}-wght-normal.woff2')
        subsetter = Subsetter(options)
        subsetter.populate(unicodes=codes)
        subsetter.subset(font)
        if name == 'latin':
            # The face has no narrow no-break space (U+202F), which French puts in "12 500 €" and
            # before ; : ! ?: drawn with its no-break space's glyph rather than dropped or boxed.
            for table in font['cmap'].tables:
                if table.isUnicode():
                    table.cmap[0x202F] = table.cmap[0xA0]
        font.flavor = 'woff2'
        out = FONTS / f'instrument-sans-{name}.woff2'
        font.save(out)
        print(f'wrote {out.relative_to(ROOT)} ({out.stat().st_size} bytes): unicode-range {unicode_range(codes)}')
    # The fallbacks' metrics (Arial / Liberation Sans, regular and bold) against weights 400–600.
    latin = TTFont(source / 'instrument-sans-latin-wght-normal.woff2')
    upm = latin['head'].unitsPerEm
    hhea = latin['hhea']
    print(f'unitsPerEm={upm} ascender={hhea.ascent} descender={hhea.descent} lineGap={hhea.lineGap}')
    fallbacks = {
        'regular': Path('/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf'),
        'bold': Path('/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf'),
    }
    for weight, fallback in [(400, 'regular'), (500, 'regular'), (600, 'bold')]:
        ours = average_advance(instantiateVariableFont(TTFont(source / 'instrument-sans-latin-wght-normal.woff2'), {'wght': weight}))
        theirs = average_advance(TTFont(fallbacks[fallback]))
        size_adjust = ours / theirs
        print(
            f'weight {weight} on Arial {fallback}: size-adjust {size_adjust * 100:.2f}%, '
            f'ascent-override {hhea.ascent / upm / size_adjust * 100:.2f}%, '
            f'descent-override {-hhea.descent / upm / size_adjust * 100:.2f}%'
        )


if __name__ == '__main__':
    faces = {'newsreader': newsreader, 'instrument-sans': instrument_sans}
    for face in sys.argv[1:] or list(faces):
        faces[face]()
