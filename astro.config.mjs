// @ts-check
import node from '@astrojs/node';
import react from '@astrojs/react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig, envField } from 'astro/config';
import { precompressIntegration } from '#api/build/precompress.ts';

const port = Number(process.env.PORT || 4321);

export default defineConfig({
  site: (process.env.PUBLIC_SITE_URL || `http://localhost:${port}`).replace(/\/+$/, ''),
  output: 'static',
  // Our auth keeps its own sessions in PostgreSQL; Astro's session store is not used.
  session: false,
  // The production server (api/server.ts) mounts this handler after serving dist/client itself.
  adapter: node({ mode: 'middleware' }),
  // api/cli/build.ts builds into a fresh directory and swaps it in, so a running site never
  // serves half a build.
  outDir: process.env.GALERIE_OUT_DIR || './dist',
  integrations: [react(), precompressIntegration()],
  // One small stylesheet: inlined, it no longer blocks the first paint behind a request.
  build: { inlineStylesheets: 'always' },
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
    },
  },
});
