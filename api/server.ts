// Production entry (`npm start`): migrate, seed a new database, build the site when needed, then
// serve it from one Node process. Problems the person running the site must fix print one line.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { hasAdmin } from './accounts/users.ts';
import { BuildError, ensureBuild } from './build/index.ts';
import { prepareDatabase } from './catalog/seed.ts';
import { forgetRunningServer, loadConfig, recordRunningServer } from './config.ts';
import { openConfiguredDatabase, provideDatabase } from './db/context.ts';
import type { DatabaseHandle } from './db/index.ts';
import { createGalerieServer, installGracefulShutdown, type NodeHandler } from './http/app.ts';
import { StaticFiles } from './http/static-files.ts';
import { warmVariants } from './media/variants.ts';
import { diskStorage } from './media/storage.ts';
import { describeFailure, EXPECTED_ERRORS } from './cli/run.ts';
import { randomBytes } from 'node:crypto';
import { sweepExpiredHolds } from './checkout/index.ts';
import { createStripeEmulator, type StripeEmulator } from './emulator/index.ts';
import { createEmulatedPayments, createStripePayments, providePayments } from './payments/index.ts';

const root = path.resolve(import.meta.dirname, '..');
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

class ListenError extends Error {
  override name = 'ListenError';
}

async function main(): Promise<void> {
  const started = performance.now();
  const config = loadConfig();
  let handle: DatabaseHandle | undefined;
  try {
    handle = await openConfiguredDatabase(config);
    console.log(`Galerie: database ${handle.description}`);
    const { migrations, seeded } = await prepareDatabase(handle.db, config);
    if (migrations.length) console.log(`Galerie: applied ${migrations.length} migration(s)`);
    if (seeded)
      console.log(`Galerie: seeded the demo catalogue (${seeded.artworksInserted} works)`);
    if (!(await hasAdmin(handle.db)))
      console.log(
        `Galerie: no administrator yet: run \`npm run admin:invite -- <email>\`${handle.kind === 'pglite' ? ' (with the embedded database, stop the server first)' : ''} and open the link it prints`,
      );

    const build = await ensureBuild(handle.db, {
      root,
      siteUrl: config.siteUrl,
      log: (line) => console.log(`  build │ ${line}`),
    });
    if (build.built)
      console.log(`Galerie: built the site (${build.reason}) in ${seconds(build.ms)}`);

    provideDatabase(handle);
    const entry = pathToFileURL(path.join(root, 'dist', 'server', 'entry.mjs')).href;
    const { handler } = (await import(entry)) as { handler: NodeHandler };
    const staticFiles = await StaticFiles.load(path.join(root, 'dist', 'client'));
    // Payments: Stripe when a secret key is set, else the emulator on this same server.
    let emulator: StripeEmulator | undefined;
    const app = createGalerieServer({
      staticFiles,
      handler,
      before: (req, res) => emulator?.handle(req, res) ?? false,
    });
    await new Promise<void>((resolve, reject) => {
      app.server.once('error', (error: NodeJS.ErrnoException) =>
        reject(
          new ListenError(
            error.code === 'EADDRINUSE'
              ? `Port ${config.port} on ${config.host} is already in use. Stop the other process or set PORT.`
              : `Cannot listen on ${config.host}:${config.port} (${error.message}). Check HOST and PORT.`,
          ),
        ),
      );
      app.server.listen(config.port, config.host, resolve);
    });
    const dbHandle = handle;
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    // Where the shop answers, for `npm run admin:invite` (its links) and other tools.
    recordRunningServer(
      config.dataDir,
      process.env['PUBLIC_SITE_URL']?.trim() ? config.siteUrl : `http://localhost:${port}`,
    );
    if (config.stripeSecretKey) {
      const payments = createStripePayments(config);
      providePayments(payments);
      console.log(
        payments.ready
          ? `Galerie: payments by Stripe (${payments.mode.toUpperCase()})`
          : `Galerie: payments are not configured: ${payments.problems.join('; ')}`,
      );
    } else {
      const webhookSecret = `whsec_${randomBytes(24).toString('base64url')}`;
      emulator = createStripeEmulator({
        webhookUrl: `http://127.0.0.1:${port}/api/stripe/webhook`,
        webhookSecret,
        publicBaseUrl: config.siteUrl,
        log: (line) => console.log(`  payments │ ${line}`),
      });
      providePayments(createEmulatedPayments(port, webhookSecret));
      console.log(
        'Galerie: payments by the local emulator (TEST; set STRIPE_SECRET_KEY for Stripe)',
      );
    }
    // Holds whose session ended without news (a lost webhook, a restart) are released every minute.
    const sweeper = setInterval(() => {
      sweepExpiredHolds(dbHandle.db).catch((error: unknown) =>
        console.error('Galerie: releasing expired holds failed:', error),
      );
    }, 60_000);
    sweeper.unref();
    installGracefulShutdown(app, {
      onClosed: async () => {
        clearInterval(sweeper);
        emulator?.close();
        forgetRunningServer(config.dataDir);
        await dbHandle.close();
      },
    });
    // Images of the catalogue are encoded once, in the background, before visitors ask for them.
    const mediaDir = path.join(config.dataDir, 'media');
    void warmVariants(
      dbHandle.db,
      diskStorage(mediaDir),
      path.join(mediaDir, 'variants'),
      build.snapshotImages,
    )
      .then((n) => {
        if (n > 0) console.log(`Galerie: prepared ${n} image variant(s)`);
      })
      .catch((error: unknown) => console.error('Galerie: preparing image variants failed:', error));
    console.log(
      `Galerie: ready at http://${config.host}:${port}/ (started in ${seconds(performance.now() - started)})`,
    );
  } catch (error) {
    await handle?.close().catch(() => {});
    throw error;
  }
}

try {
  await main();
} catch (error) {
  const expected =
    error instanceof ListenError ||
    error instanceof BuildError ||
    EXPECTED_ERRORS.some((k) => error instanceof k);
  console.error(
    `Galerie could not start: ${expected ? (error as Error).message : describeFailure(error)}`,
  );
  process.exit(1);
}
