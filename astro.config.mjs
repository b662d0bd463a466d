// @ts-check
import node from '@astrojs/node';
import react from '@astrojs/react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig, envField } from 'astro/config';
import { precompressIntegration } from '#api/build/precompress.ts';
import { requestObjectsPlugin } from '#api/build/request-objects.ts';
import { PAGE_DIRECTIVES } from '#api/http/headers.ts';

const port = Number(process.env.PORT || 4321);

// The one inline script of our own, in every page's <head> and allowed by the hash Astro computes
// for it (issue 14):
// - it marks the document as scripted before the first paint (`html.js` styles in
//   src/styles/global.css);
// - it tells zod not to probe for eval — which our policy forbids, and a browser reports even the
//   caught probe as a violation. Zod reads its configuration from this global, shared by every copy
//   of it (zod/v4/core `globalConfig`, `jitless`);
// - it declares the web fonts (docs/decisions/051) from the files <html data-fonts> names
//   (src/lib/fonts.ts): at once on a repeat visit in this tab session (they are in the HTTP cache)
//   or where the layout asks for it (`data-fonts-now`: the back office, the maintenance page); on
//   a first visit only after the first paint that follows `load`, so the fonts do not compete with
//   the page's largest image. The metric-matched fallbacks of src/styles/fonts.css stand in until
//   then. `html.fonts-ready` is set once they are loaded (the e2e suite's screenshots wait for it).
// Written short because every page carries it (it counts in each page's JavaScript budget). The
// Latin Extended-A file is declared last with its range, so the browser looks there first for those
// letters only; everything else comes from the Latin file.
const HEAD_SCRIPT = [
  '(function(){var d=document.documentElement;d.classList.add("js");',
  'globalThis.__zod_globalConfig=Object.assign(globalThis.__zod_globalConfig||{},{jitless:true});',
  'var f=(d.getAttribute("data-fonts")||"").split(" "),k="galerie:fonts",now=d.hasAttribute("data-fonts-now");',
  'if(f.length<3||!window.FontFace||!document.fonts)return;',
  'function go(){var t="400 700";Promise.all([["Newsreader",f[0],{}],["Instrument Sans",f[1],{weight:t}],',
  '["Instrument Sans",f[2],{weight:t,unicodeRange:"U+100-17F"}]].map(function(a){',
  'var x=new FontFace(a[0],"url("+a[1]+")",Object.assign({display:"swap"},a[2]));',
  'document.fonts.add(x);return x.load()})).then(function(){try{sessionStorage.setItem(k,"1")}catch(e){}},',
  'function(){}).then(function(){d.classList.add("fonts-ready")})}',
  'try{now=now||sessionStorage.getItem(k)==="1"}catch(e){}',
  'if(now)go();else addEventListener("load",function(){requestAnimationFrame(function(){setTimeout(go)})})})();',
].join('');
/** @type {import('astro').AstroIntegration} */
const headScript = {
  name: 'galerie:head-script',
  hooks: { 'astro:config:setup': ({ injectScript }) => injectScript('head-inline', HEAD_SCRIPT) },
};

// The browser's dynamic imports without Vite's preload helper (docs/decisions/051). Vite wraps each
// `import()` in a helper (0.9 KB gzip, a chunk of its own) that preloads the imported chunk's
// dependencies and CSS in parallel; on the storefront it was fetched by every page that can load
// something lazily — /contact and each work page — only to preload the contact form's imports,
// and it counted in their JavaScript budget. None of our lazily loaded modules imports CSS (the
// styles are the pages' own, inlined), so the helper becomes a plain call and a lazily loaded
// chunk fetches its own imports when it runs; `modulePreload: false` stops Vite listing them.
const PRELOAD_HELPER = '\0vite/preload-helper.js';
const HELPER_IMPORT = /import \{ \w+ as (\w+) \} from "\.\/preload-helper\.[^"]+";/;
/** @type {import('vite').Plugin} */
const plainDynamicImports = {
  name: 'galerie:plain-dynamic-imports',
  enforce: 'pre',
  applyToEnvironment: (environment) => environment.name === 'client',
  configEnvironment: (name) =>
    name === 'client' ? { build: { modulePreload: false } } : undefined,
  resolveId: (id) => (id === PRELOAD_HELPER ? id : undefined),
  load: (id) =>
    id === PRELOAD_HELPER ? 'export const __vitePreload = (load) => load();' : undefined,
  // ... and then a local function in each chunk, not an import: a chunk of its own would be one
  // more request in a chain (page script → helper) on every page that imports lazily.
  renderChunk(code) {
    const local = code.replace(HELPER_IMPORT, (_all, name) => `const ${name} = (load) => load();`);
    return local === code ? null : { code: local, map: null };
  },
};

export default defineConfig({
  site: (process.env.PUBLIC_SITE_URL || `http://localhost:${port}`).replace(/\/+$/, ''),
  output: 'static',
  // Our auth keeps its own sessions in PostgreSQL; Astro's session store is not used.
  session: false,
  // The production server (api/server.ts) mounts this handler after serving dist/client itself.
  // Prerendered pages' policies go to dist/_headers.json, sent by api/http/static-files.ts as a
  // header: a <meta> can be pushed out of <head> by markup injected above it (issue 24).
  adapter: node({ mode: 'middleware', staticHeaders: true }),
  // api/cli/build.ts builds into a fresh directory and swaps it in, so a running site never
  // serves half a build.
  outDir: process.env.GALERIE_OUT_DIR || './dist',
  // One cache per build (api/build/index.ts): the content layer's store is merged into the next
  // build that finds it, so builds running at once must not share one.
  ...(process.env.GALERIE_CACHE_DIR && { cacheDir: process.env.GALERIE_CACHE_DIR }),
  integrations: [react(), precompressIntegration(), headScript],
  // A publish renders again only the work pages whose work or settings changed: the others are
  // copied from the last build (src/lib/work-pages.ts `cacheKey`, docs/decisions/053).
  experimental: { incrementalBuild: true },
  // One small stylesheet: inlined, it no longer blocks the first paint behind a request.
  build: { inlineStylesheets: 'always' },
  security: {
    // Astro's own check compares Origin with the request's URL, made from the Host header and the
    // socket's protocol: behind an HTTPS proxy it refuses our own forms, and a made-up Host passes
    // it. src/middleware.ts checks every unsafe request against PUBLIC_SITE_URL instead (issue 14).
    checkOrigin: false,
    // Content Security Policy (issue 14): each page lists the hashes of the inline scripts and
    // styles Astro emits, always as a header (issue 24), never 'unsafe-inline'.
    // Framing and the headers of every response: api/http/headers.ts.
    csp: { directives: [...PAGE_DIRECTIVES] },
  },
  i18n: {
    locales: ['fr', 'en'],
    defaultLocale: 'fr',
    routing: { prefixDefaultLocale: false },
  },
  vite: {
    plugins: [tailwindcss(), plainDynamicImports, requestObjectsPlugin()],
  },
  env: {
    validateSecrets: true,
    schema: {
      DATABASE_URL: envField.string({ context: 'server', access: 'secret', optional: true }),
      DATA_DIR: envField.string({ context: 'server', access: 'secret', optional: true }),
      HOST: envField.string({ context: 'server', access: 'public', optional: true }),
      PORT: envField.number({ context: 'server', access: 'public', optional: true }),
      PUBLIC_SITE_URL: envField.string({ context: 'server', access: 'public', optional: true }),
      STRIPE_SECRET_KEY: envField.string({ context: 'server', access: 'secret', optional: true }),
      STRIPE_WEBHOOK_SECRET: envField.string({
        context: 'server',
        access: 'secret',
        optional: true,
      }),
      STRIPE_PUBLISHABLE_KEY: envField.string({
        context: 'server',
        access: 'public',
        optional: true,
      }),
      SMTP_URL: envField.string({ context: 'server', access: 'secret', optional: true }),
      TRUST_PROXY: envField.string({ context: 'server', access: 'secret', optional: true }),
    },
  },
});
