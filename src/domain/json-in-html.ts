// JSON written inside an HTML <script> element (the JSON-LD blocks of every public page, issue
// 24). `JSON.stringify` leaves `<`, `>` and `&` as they are, so a title holding `</script>` closes
// the element and what follows runs as markup; `<!--` switches the parser into its script-data
// escape states. Each is written as its \u escape instead — the same value for any JSON reader —
// and so are U+2028/U+2029, which older JavaScript parsers took for line ends.

const ESCAPES: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

/** `JSON.stringify(value)` safe to place between `<script …>` and `</script>`. */
export function jsonForScript(value: unknown): string {
  return (JSON.stringify(value) ?? 'null').replace(/[<>&\u2028\u2029]/g, (c) => ESCAPES[c]!);
}
