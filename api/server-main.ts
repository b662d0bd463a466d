// The server (`npm start`, through ./server.ts): migrate, seed a new database, listen, then serve
// the built site — the current version when it still matches the sources and catalogue, else a
// fresh build — and keep publishing while serving (api/build/publisher.ts). Problems the person
// running the site must fix print one line.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { flushCompileCache } from 'node:module';
import path from 'node:path';
import { openAdminChannel, type AdminChannel } from './accounts/admin-channel.ts';
import { createAdminInvitation } from './accounts/invitations.ts';
import { ensureSetupLink, keepsSetupLink } from './accounts/setup-link.ts';
import { afterAnswerSettled } from './background.ts';
import { BuildError, ensureBuild, startBuild, type StartedBuild } from './build/index.ts';
import { providePublisher, provideStandby } from './build/publish.ts';
import { Publisher } from './build/publisher.ts';
import { ServedVersion } from './build/served.ts';
import { StandbyBuild } from './build/standby.ts';
import { distDirOf, readCurrent, unmarkInUse } from './build/versions.ts';
import { followCluster } from './cluster/follow.ts';
import { CLUSTER_LOCKS, tryClusterLock, withClusterLock } from './cluster/lock.ts';
import { validateSessionToken } from './accounts/sessions.ts';
import { runErasuresDue } from './admin/customers.ts';
import { adminBodyGate } from './http/body-gate.ts';
import { sweepExpiredHolds } from './checkout/index.ts';
import { AvailabilityCache } from './catalog/availability-cache.ts';
import { prepareDatabase, startSeedRenders } from './catalog/seed.ts';
import { ensureSigningKey, publicSigningKeys } from './certificates/signing.ts';
import { describeFailure, EXPECTED_ERRORS } from './cli/run.ts';
import { forgetRunningServer, loadConfig, recordRunningServer } from './config.ts';
import { openConfiguredDatabase, pgliteDirFor, provideDatabase } from './db/context.ts';
import type { DatabaseHandle } from './db/index.ts';
import { createStripeEmulator, type StripeEmulator } from './emulator/index.ts';
import { checkHealth } from './health.ts';
import { createGalerieServer, installGracefulShutdown } from './http/app.ts';
import { maintenanceGate } from './http/maintenance.ts';
import { log } from './log.ts';
import { diskStorage } from './media/storage.ts';
import { warmVariantsAside } from './media/variants.ts';
import { getMailer } from './mail/index.ts';
import {
  createEmulatedPayments,
  createStripePayments,
  paymentProvider,
  providePayments,
  type Payments,
} from './payments/index.ts';
import { startReconciliation } from './payments/reconcile.ts';
import { startBackupSchedule } from './backup/schedule.ts';
import { databaseStore, VisitCounter } from './visits/index.ts';

const root = path.resolve(import.meta.dirname, '..');
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

class ListenError extends Error {
  override name = 'ListenError';
}

async function main(): Promise<void> {
  const started = performance.now();
  const config = loadConfig();
  const dist = distDirOf(root);
  let handle: DatabaseHandle | undefined;
  let earlyBuild: StartedBuild | undefined;
  const buildLog = log.child({ part: 'build' });
  const logBuild = (line: string) => buildLog.info(line);
  try {
    // A first start overlaps its slow parts on the machine's cores (issue 28 §2). With a new
    // embedded database, the demo's images are rendered while PGlite creates the database. With
    // no version built yet on one node, `astro build` starts at once and waits for the catalogue
    // (a cluster's builds take their turns under a lock instead).
    const seedRenders =
      !config.databaseUrl && !fs.existsSync(pgliteDirFor(config)) ? startSeedRenders() : undefined;
    seedRenders?.catch(() => {});
    // Without Node's compile cache: on a cold start, writing it cost ~2 s of the way to ready
    // (docs/decisions/064); the next publishes' builds write it in the background.
    if (!config.databaseUrl && !readCurrent(dist))
      earlyBuild = await startBuild({
        root,
        dist,
        siteUrl: config.siteUrl,
        log: logBuild,
        compileCache: false,
      });
    handle = await openConfiguredDatabase(config);
    log.info(`Galerie: database ${handle.description}`);
    // Nodes starting together on PostgreSQL: one migrates and seeds, the others then find it done.
    const opened = handle;
    const prepare = () => prepareDatabase(opened.db, config, seedRenders);
    const { migrations, seeded } =
      opened.kind === 'postgres'
        ? await withClusterLock(opened.db, CLUSTER_LOCKS.prepare, prepare)
        : await prepare();
    if (migrations.length) log.info(`Galerie: applied ${migrations.length} migration(s)`);
    if (seeded) log.info(`Galerie: seeded the demo catalogue (${seeded.artworksInserted} works)`);
    // The key that signs the certificates of authenticity is made at the first start and kept
    // in the database, so every backup carries it (docs/decisions/046).
    if ((await publicSigningKeys(handle.db)).length === 0) {
      const key = await ensureSigningKey(handle.db);
      log.info(
        `Galerie: made the certificates' signing key ${key.id} (kept in the database and its backups)`,
      );
    }
    provideDatabase(handle);
    const db = handle.db;
    // On PostgreSQL several nodes may share the database and the dist folder: builds, the hold
    // sweeper and reconciliation run on one node at a time, and each node follows the versions
    // and settings the others publish (docs/decisions/028).
    const cluster = handle.kind === 'postgres';
    const oneBuilder = <T>(build: () => Promise<T>, signal?: AbortSignal): Promise<T> =>
      cluster ? withClusterLock(db, CLUSTER_LOCKS.publish, build, { signal }) : build();

    // Listen first: a port in use stops here, before any build; until a version is loaded,
    // pages answer 503 "starting" and health says so.
    let emulator: StripeEmulator | undefined;
    // `npm run admin:invite` beside this server on the embedded database (decision 048).
    let channel: AdminChannel | undefined;
    // Private visit counts (api/visits), written every 10 s and at shutdown; off for benchmarks.
    const visits = config.visitCounting ? new VisitCounter({ store: databaseStore(db) }) : null;
    if (!visits) log.info('Galerie: visit counting is off (VISIT_COUNTING=off)');
    const app = createGalerieServer({
      before: (req, res) =>
        (emulator?.handle(req, res) ?? false) || (channel?.handle(req, res) ?? false),
      health: () => checkHealth(db, () => app.site.canRender()),
      gate: maintenanceGate(db, config.siteUrl),
      siteUrl: config.siteUrl,
      trustProxy: config.trustProxy,
      // The back office's API hears a body only from a signed-in administrator on our origin.
      bodyGate: adminBodyGate({
        siteUrl: config.siteUrl,
        validate: (token) => validateSessionToken(db, token),
      }),
      ...(visits && { observe: visits.observe.bind(visits) }),
      // The same answer for every visitor, from memory (issue 14 §2).
      availability: new AvailabilityCache(() => db),
    });
    visits?.start();
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
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;

    const mediaDir = path.join(config.dataDir, 'media');
    // The variants' worker stops with the server (a render cut short leaves no file).
    const warming = new AbortController();
    const warm = (images: { sha256: string; width: number }[]) =>
      warmVariantsAside(
        db,
        mediaDir,
        path.join(mediaDir, 'variants'),
        images,
        diskStorage(mediaDir),
        warming.signal,
      )
        .then((n) => {
          if (n > 0) log.info(`Galerie: prepared ${n} image variant(s)`);
        })
        .catch((error: unknown) =>
          log.error({ err: error }, 'Galerie: preparing image variants failed'),
        );
    const versions = new ServedVersion({ site: app.site, dist });
    const early = earlyBuild;
    let build = await oneBuilder(() =>
      ensureBuild(db, {
        root,
        dist,
        siteUrl: config.siteUrl,
        log: logBuild,
        ...(early && { early }),
      }),
    );
    earlyBuild = undefined;
    const loaded = await versions.serve(build.id, build.dir).catch((error: unknown) => {
      log.error({ err: error }, `Galerie: version ${build.id} cannot be loaded`);
      return false;
    });
    if (!loaded) {
      build = await oneBuilder(() =>
        ensureBuild(db, { root, dist, siteUrl: config.siteUrl, log: logBuild, force: true }),
      );
      await versions.serve(build.id, build.dir);
    }
    if (build.built) log.info(`Galerie: built the site (${build.reason}) in ${seconds(build.ms)}`);

    // Publishing while serving: a new version is built beside the served one, loaded whole,
    // then swapped in; the one it replaces is kept until no request uses it.
    // The next publish's build, started ahead while the owner edits (docs/decisions/056).
    const standby = new StandbyBuild(
      { root, dist, siteUrl: config.siteUrl, log: logBuild },
      {
        enabled: config.publishAhead,
        onError: (error) =>
          log.warn({ err: error }, 'Galerie: a build ahead of the next publish could not start'),
      },
    );
    const publisher = new Publisher({
      initial: { version: build.id, lastSuccessAt: build.info.builtAt },
      log: (line) =>
        line.startsWith('publish failed')
          ? log.warn(`Galerie: ${line}`)
          : log.info(`Galerie: ${line}`),
      describe: (error) =>
        error instanceof BuildError ? error.lastLine : (error as Error).message,
      publish: (signal, { force }) =>
        standby.around(async () => {
          versions.building += 1;
          try {
            // The current version is served on when it was built from this catalogue snapshot
            // (after a sale that changes nothing a page shows, say) unless the publish was asked
            // for by hand; on several nodes, under the publish lock, a matching version another
            // node built while this one waited is served instead of built again.
            const served = versions.id;
            const next = await oneBuilder(
              () =>
                ensureBuild(db, {
                  root,
                  dist,
                  siteUrl: config.siteUrl,
                  signal,
                  stale: force ? served : null,
                  standby,
                }),
              signal,
            );
            if (next.id === served) {
              log.info(`Galerie: the pages did not change, version ${next.id} stays`);
              return next.id;
            }
            await versions.serve(next.id, next.dir);
            void warm(next.snapshotImages);
            log.info(
              next.built
                ? `Galerie: published version ${next.id} in ${seconds(next.ms)}`
                : `Galerie: serving version ${next.id}, already published by another node`,
            );
            return next.id;
          } finally {
            versions.building -= 1;
          }
        }),
    });
    providePublisher(publisher);
    provideStandby(() => standby.prepare());
    // Versions and settings the other nodes publish, followed once a second.
    const follower = cluster
      ? followCluster({
          db,
          dist,
          siteUrl: config.siteUrl,
          sourceHash: build.info.sourceHash,
          served: versions,
          // Its image variants were prepared by the node that built it (shared DATA_DIR).
          onAdopted: (id, info) => publisher.adopted(id, info.builtAt),
        })
      : null;

    // Where the shop answers, for `npm run admin:invite` (its links) and other tools.
    const linkBase = process.env['PUBLIC_SITE_URL']?.trim()
      ? config.siteUrl
      : `http://localhost:${port}`;
    recordRunningServer(config.dataDir, linkBase);
    if (handle.kind === 'pglite')
      channel = openAdminChannel({
        dataDir: config.dataDir,
        host: config.host,
        port,
        invite: async (email) => {
          const invitation = await createAdminInvitation(db, email, { siteUrl: linkBase });
          log.info(
            `Galerie: made an administrator invitation for ${invitation.email} (admin:invite)`,
          );
          return invitation;
        },
        log: (line) => log.warn(`Galerie: ${line}`),
      });
    // No administrator yet: the first one's single-use setup link (decision 048), on stdout as a
    // plain line — the log says where it is, never the link itself — and on /admin/login to a
    // request from this machine. Made again when it lapses; forgotten once an administrator exists.
    let keptPrinted = false;
    let setupLooked = false;
    const setupLink = async () => {
      const setup = await ensureSetupLink(db, { dataDir: config.dataDir });
      setupLooked = true;
      if (!setup || (!setup.made && keptPrinted)) return;
      keptPrinted = true;
      console.log(
        `\nNo administrator yet. Create the first account with this single-use link (valid until ${setup.link.expiresAt.toISOString()}):\n${linkBase}${setup.link.path}\n`,
      );
      log.info(
        `Galerie: no administrator yet: the setup link is printed above on stdout and shown at http://localhost:${port}/admin/login to a browser on this machine; \`npm run admin:invite -- <email>\` makes an invitation too`,
      );
    };
    // Payments (docs/decisions/023): Stripe with a key; the emulator on an http:// site or with
    // PAYMENT_EMULATOR=on; otherwise an https:// site missing its keys takes no order.
    const provider = paymentProvider(config);
    let payments: Payments;
    if (provider === 'emulator') {
      const webhookSecret = `whsec_${randomBytes(24).toString('base64url')}`;
      const paymentsLog = log.child({ part: 'payments' });
      emulator = createStripeEmulator({
        webhookUrl: `http://127.0.0.1:${port}/api/stripe/webhook`,
        webhookSecret,
        publicBaseUrl: config.siteUrl,
        // Its random key, sessions and pending webhooks survive a restart (and a kill -9).
        dataDir: path.join(config.dataDir, 'emulator'),
        log: (line) => paymentsLog.info(line),
      });
      payments = createEmulatedPayments(port, webhookSecret, emulator.secretKey);
      providePayments(payments);
      log.info('Galerie: payments by the local emulator (TEST; set STRIPE_SECRET_KEY for Stripe)');
    } else {
      payments = createStripePayments(config);
      providePayments(payments);
      log.info(
        payments.ready
          ? `Galerie: payments by Stripe (${payments.mode.toUpperCase()})`
          : `Galerie: payments are not configured: ${payments.problems.join('; ')}${provider === 'unconfigured' ? ' (the test payment emulator runs on an https:// site only with PAYMENT_EMULATOR=on)' : ''}`,
      );
    }
    // Payments whose webhook never came (a crash, an outage) are found at the provider, and the
    // mails of payments a crash cut short are sent: now and every five minutes.
    const reconciler = payments.ready
      ? startReconciliation(
          { db, payments, mailer: getMailer() },
          cluster
            ? { advisoryLock: true }
            : { advisoryLock: false, startedAt: new Date(performance.timeOrigin) },
        )
      : null;
    // Holds whose session ended without news (a lost webhook, a restart) are released every minute,
    // and the erasures the owner asked for once a customer's open orders closed are carried out.
    // On several nodes one of them at a time does it (the others skip that minute).
    const sweep = async () => {
      await sweepExpiredHolds(db);
      const erased = await runErasuresDue(db);
      if (erased) log.info(`Galerie: carried out ${erased} scheduled customer erasure(s)`);
      // The setup link lapsed, or its first making failed: a new one (decision 048).
      if (!setupLooked || keepsSetupLink(config.dataDir)) await setupLink();
    };
    const sweeper = setInterval(() => {
      (cluster ? tryClusterLock(db, CLUSTER_LOCKS.sweep, sweep) : sweep()).catch((error: unknown) =>
        log.error({ err: error }, 'Galerie: the minute sweep (holds, erasures) failed'),
      );
    }, 60_000);
    sweeper.unref();
    // The daily backup into BACKUP_DIR, keeping the newest BACKUP_KEEP (docs/decisions/027).
    const backups = config.backups
      ? startBackupSchedule({
          db,
          kind: handle.kind,
          dataDir: config.dataDir,
          backupDir: config.backupDir,
          keep: config.backupKeep,
        })
      : null;
    const dbHandle = handle;
    installGracefulShutdown(app, {
      onClosed: async () => {
        clearInterval(sweeper);
        warming.abort();
        await follower?.stop();
        await reconciler?.stop();
        await backups?.stop();
        await publisher.close();
        providePublisher(undefined);
        provideStandby(undefined);
        await standby.stop();
        const served = app.site.version;
        if (served) unmarkInUse(dist, served.id);
        emulator?.close();
        channel?.close();
        forgetRunningServer(config.dataDir);
        await visits?.stop();
        // The account mails requests left to send after answering need the database.
        await afterAnswerSettled();
        await dbHandle.close();
      },
    });
    // Images of the catalogue are encoded once, in the background, before visitors ask for them.
    void warm(build.snapshotImages);
    log.info(
      `Galerie: ready at http://${config.host}:${port}/ (started in ${seconds(performance.now() - started)})`,
    );
    // What this start compiled is on disk now, not only at a graceful exit (./server.ts).
    flushCompileCache();
    // A failure here (a read-only DATA_DIR, say) must not stop a shop that serves: said, retried.
    await setupLink().catch((error: unknown) =>
      log.error({ err: error }, 'Galerie: making the setup link failed (retried every minute)'),
    );
  } catch (error) {
    await earlyBuild?.abandon().catch(() => {});
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
  // One plain line on stderr, for the person starting the server (and for a supervisor's status),
  // not a log record: nothing was served, and the process ends here (docs/decisions/022).
  console.error(
    `Galerie could not start: ${expected ? (error as Error).message : describeFailure(error)}`,
  );
  process.exit(1);
}
