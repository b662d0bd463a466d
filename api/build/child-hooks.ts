// Loaded into each build's child process (`node --import`, api/build/index.ts): the rewrites of
// Astro's own modules that the build process runs unbundled (`CHILD_TARGETS`,
// ./request-objects.ts), applied as Node loads them.
import { registerHooks } from 'node:module';
import { rewriteChildModule } from './request-objects.ts';

registerHooks({
  load(url, context, nextLoad) {
    const result = nextLoad(url, context);
    if (!url.includes('/astro/dist/content/') || result.source == null) return result;
    const source =
      typeof result.source === 'string' ? result.source : new TextDecoder().decode(result.source);
    const rewritten = rewriteChildModule(url, source);
    return rewritten === null ? result : { ...result, source: rewritten };
  },
});
