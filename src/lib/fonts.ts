// The web fonts' files, for the `data-fonts` attribute every layout puts on <html>: the inline head
// script (astro.config.mjs, HEAD_SCRIPT) declares the faces from it with the FontFace API, in this
// order — Newsreader 400 (headings), Instrument Sans Latin, Instrument Sans Latin Extended-A —
// at once on a repeat visit or a back-office page, after the first paint on a first visit
// (docs/decisions/051).
import headingFont from '../assets/fonts/newsreader-400.woff2?url';
import textFont from '../assets/fonts/instrument-sans-latin.woff2?url';
import textFontExt from '../assets/fonts/instrument-sans-latin-ext.woff2?url';

export const FONT_FILES = `${headingFont} ${textFont} ${textFontExt}`;
export { headingFont, textFont };
