// Mails as a short list of parts, rendered twice from the same source: a plain-text body and an
// HTML alternative (inline styles, one table column, as mail clients need), so both always say
// the same thing. Every value is escaped in the HTML.

export type MailPart =
  | { p: string }
  | { heading: string }
  /** A link shown as a button in HTML and as the bare URL in text. */
  | { link: { label: string; href: string } }
  | { list: readonly string[] }
  /** The works of an order: title, what it is (original, print, quantity), amount. */
  | { lines: readonly { title: string; detail: string; amount: string }[] }
  | { totals: readonly { label: string; amount: string; strong?: boolean }[] }
  | { block: { heading: string; lines: readonly string[] } };

export interface ComposedMail {
  text: string;
  html: string;
}

export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/**
 * A label and its colon as the language writes it (issue 26): French puts a no-break space before
 * the colon ('Adresse de livraison :'), English none ('Subtotal:').
 */
export function colon(lang: 'fr' | 'en', label: string): string {
  return lang === 'fr' ? `${label}\u00a0:` : `${label}:`;
}

function textOf(part: MailPart, lang: 'fr' | 'en'): string[] {
  if ('p' in part) return [part.p];
  if ('heading' in part) return [part.heading.toUpperCase()];
  if ('link' in part) return [colon(lang, part.link.label), part.link.href];
  if ('list' in part) return part.list.map((item) => `- ${item}`);
  if ('lines' in part) return part.lines.map((l) => `${l.title} — ${l.detail} — ${l.amount}`);
  if ('totals' in part) return part.totals.map((row) => `${colon(lang, row.label)} ${row.amount}`);
  return [colon(lang, part.block.heading), ...part.block.lines];
}

const INK = '#1c1b19';
const MUTED = '#5c5955';
const FONT = "font-family:Georgia,'Times New Roman',serif";
const SANS = 'font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif';

function htmlOf(part: MailPart): string {
  const e = escapeHtml;
  if ('p' in part) return `<p style="margin:0 0 16px;line-height:1.55">${e(part.p)}</p>`;
  if ('heading' in part)
    return `<h2 style="${FONT};font-weight:normal;font-size:20px;margin:28px 0 10px">${e(part.heading)}</h2>`;
  if ('link' in part)
    return `<p style="margin:8px 0 20px"><a href="${e(part.link.href)}" style="display:inline-block;background:${INK};color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:4px">${e(part.link.label)}</a></p><p style="margin:0 0 16px;font-size:12px;color:${MUTED};word-break:break-all">${e(part.link.href)}</p>`;
  if ('list' in part)
    return `<ul style="margin:0 0 16px;padding-left:20px;line-height:1.55">${part.list.map((item) => `<li>${e(item)}</li>`).join('')}</ul>`;
  if ('lines' in part)
    return `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="border-collapse:collapse;margin:0 0 8px">${part.lines
      .map(
        (l) =>
          `<tr><td style="padding:10px 0;border-bottom:1px solid #e5e1da"><span style="${FONT};font-size:17px">${e(l.title)}</span><br><span style="font-size:13px;color:${MUTED}">${e(l.detail)}</span></td><td style="padding:10px 0;border-bottom:1px solid #e5e1da;text-align:right;white-space:nowrap;vertical-align:top">${e(l.amount)}</td></tr>`,
      )
      .join('')}</table>`;
  if ('totals' in part)
    return `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="border-collapse:collapse;margin:0 0 16px">${part.totals
      .map(
        (row) =>
          `<tr${row.strong ? ' style="font-weight:bold"' : ''}><td style="padding:4px 0">${e(row.label)}</td><td style="padding:4px 0;text-align:right;white-space:nowrap">${e(row.amount)}</td></tr>`,
      )
      .join('')}</table>`;
  return `<p style="margin:0 0 16px;line-height:1.55"><strong>${e(part.block.heading)}</strong><br>${part.block.lines.map(e).join('<br>')}</p>`;
}

/** The text and HTML bodies of one mail, signed by the site. */
export function composeMail(
  lang: 'fr' | 'en',
  parts: readonly MailPart[],
  signature: string,
): ComposedMail {
  const text = [...parts.flatMap((part) => [...textOf(part, lang), '']), signature].join('\n');
  const body = parts.map(htmlOf).join('\n');
  const html = `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="margin:0;padding:0;background:#faf8f4">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#faf8f4"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border:1px solid #e5e1da;border-radius:6px">
<tr><td style="padding:28px 28px 8px;${SANS};font-size:15px;color:${INK}">
<p style="${FONT};font-size:22px;margin:0 0 24px">${escapeHtml(signature)}</p>
${body}
</td></tr></table>
</td></tr></table>
</body></html>`;
  return { text, html };
}
