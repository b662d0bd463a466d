// The build-time rewrite of Astro's per-request objects (api/build/request-objects.ts): it applies
// to the Astro installed here, what it writes is valid JavaScript with no getter made per request,
// and an Astro whose code changed stops the build with a message instead of losing the fix.
import fs from 'node:fs';
import path from 'node:path';
import { parseAst } from 'vite';
import { describe, expect, it } from 'vitest';
import {
  CHILD_TARGETS,
  requestObjectsPlugin,
  rewrite,
  rewriteChildModule,
  TARGETS,
} from './request-objects.ts';

const root = path.resolve(import.meta.dirname, '../..');
const source = (suffix: string) => fs.readFileSync(path.join(root, 'node_modules', suffix), 'utf8');

function transform(code: string, id: string): string | null {
  const hook = requestObjectsPlugin().transform as (
    code: string,
    id: string,
  ) => { code: string } | null;
  return hook(code, id)?.code ?? null;
}

describe('requestObjectsPlugin', () => {
  it('rewrites the installed Astro into valid modules', () => {
    for (const suffix of Object.keys(TARGETS)) {
      const id = path.join(root, 'node_modules', suffix);
      const out = transform(source(suffix), id);
      expect(out, suffix).not.toBeNull();
      expect(() => parseAst(out!), suffix).not.toThrow();
    }
  });

  it('leaves no getter made per request in the render options, contexts and providers', () => {
    const suffix = '/astro/dist/core/fetch/fetch-state.js';
    const before = source(suffix);
    const out = transform(before, `/x/node_modules${suffix}`)!;
    expect(before).toMatch(/get locals\(\) \{\n\s+return self\.locals;/);
    expect(out).not.toMatch(/get locals\(\) \{\n\s+return self\.locals;/);
    expect(out).not.toContain('get: () => state.resolve(key)');
    // The endpoint's context: every getter it had is now one shared descriptor.
    const context = /getActionAPIContext\(\) \{[\s\S]*?this\.defineProviderGetters\(ctx\);/.exec(
      out,
    )![0];
    expect(context).not.toMatch(/\bget \w+\(\)/);
    for (const name of [
      'cookies',
      'clientAddress',
      'currentLocale',
      'locals',
      'preferredLocale',
      'preferredLocaleList',
      'originPathname',
      'csp',
      'logger',
    ])
      expect(out).toMatch(new RegExp(`\\n  ${name}: \\{`));
  });

  it("drops the signal from the node adapter's Request", () => {
    const suffix = '/astro/dist/core/app/node.js';
    expect(source(suffix)).toContain('signal: controller.signal');
    expect(transform(source(suffix), `/x/node_modules${suffix}`)).not.toContain(
      'signal: controller.signal',
    );
  });

  it('touches no other module', () => {
    expect(
      transform('export const a = 1;', '/x/node_modules/astro/dist/core/app/base.js'),
    ).toBeNull();
    expect(transform('export const a = 1;', '/x/src/pages/index.astro')).toBeNull();
  });

  it('stops with a message naming the fix when Astro changed the code', () => {
    const [suffix, target] = Object.entries(TARGETS)[0]!;
    expect(() => rewrite('export {};', suffix, target.rewrites)).toThrow(
      /Astro changed this code.*docs\/decisions\/057/,
    );
  });
});

describe('rewriteChildModule', () => {
  it("gives the build process's temporary files its pid, in the installed Astro", () => {
    for (const suffix of Object.keys(CHILD_TARGETS).filter((s) => s.includes('/content/'))) {
      const before = source(suffix);
      expect(before, suffix).toMatch(/\.tmp`/);
      const out = rewriteChildModule(`file:///x/node_modules${suffix}`, before)!;
      expect(out, suffix).not.toMatch(/(href|filePath|file)\}\.tmp`/);
      expect(out, suffix).toContain('.${process.pid}.tmp`');
      expect(() => parseAst(out), suffix).not.toThrow();
    }
    expect(rewriteChildModule('file:///x/node_modules/astro/dist/core/app/base.js', '')).toBeNull();
  });

  it('lets a publish skip the SSR build and restore what it found, in the installed Astro (decision 063)', () => {
    for (const suffix of [
      '/astro/dist/core/build/static-build.js',
      '/astro/dist/vite-plugin-astro/index.js',
    ]) {
      const out = rewriteChildModule(`file:///x/node_modules${suffix}`, source(suffix))!;
      for (const step of CHILD_TARGETS[suffix]!) expect(out, step.what).toContain(step.to);
      expect(() => parseAst(out), suffix).not.toThrow();
    }
  });
});
