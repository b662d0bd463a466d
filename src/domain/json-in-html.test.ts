import { describe, expect, it } from 'vitest';
import { jsonForScript } from './json-in-html.ts';

describe('jsonForScript', () => {
  const hostile = {
    name: '</script><script>alert(1)</script>',
    description: '<!-- <script> & </SCRIPT >',
    url: 'https://example.org/?a=1&b=<2>',
    lines: 'one\u2028two\u2029three',
  };

  it('leaves no character that can end or escape the script element', () => {
    const text = jsonForScript(hostile);
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(text.toLowerCase()).not.toContain('</script');
    expect(text).not.toContain('<!--');
  });

  it('reads back as the same value', () => {
    expect(JSON.parse(jsonForScript(hostile))).toEqual(hostile);
    expect(JSON.parse(jsonForScript([1, 'é', null]))).toEqual([1, 'é', null]);
  });

  it('writes null for what JSON cannot hold', () => {
    expect(jsonForScript(undefined)).toBe('null');
  });
});
