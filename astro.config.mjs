// @ts-check
import node from '@astrojs/node';
import react from '@astrojs/react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig, envField } from 'astro/config';
import { precompressIntegration } from '#api/build/precompress.ts';
import { PAGE_DIRECTIVES } from '#api/http/headers.ts';

const port = Number(process.env.PORT || 4321);

// The one inline script of our own, in every page's <head> and allowed by the hash Astro computes
// for it (issue 14): it marks the document as scripted before the first paint (`html.js` styles in
// src/styles/global.css), and tells zod not to probe for eval — which our policy forbids, and a
// browser reports even the caught probe as a violation. Zod reads its configuration from this
// global, shared by every copy of it (zod/v4/core `globalConfig`, `jitless`).
const HEAD_SCRIPT =
  "document.documentElement.classList.add('js');globalThis.__zod_globalConfig=Object.assign(globalThis.__zod_globalConfig||{},{jitless:true});";
/** @type {import('astro').AstroIntegration} */
const headScript = {
  name: 'galerie:head-script',
  hooks: { 'astro:config:setup': ({ injectScript }) => injectScript('head-inline', HEAD_SCRIPT) },
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
    plugins: [tailwindcss()],
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
