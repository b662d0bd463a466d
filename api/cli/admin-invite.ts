// `npm run admin:invite -- <email>`: creates a single-use administrator invitation valid 72 hours
// and prints its link (no default credential exists anywhere). The link points at the shop: the
// PUBLIC_SITE_URL / PORT given, else the address the running server recorded, else the default.
// With the embedded database a running server holds it: the command says to stop it first.
import { createAdminInvitation } from '../accounts/invitations.ts';
import { loadConfig, readRunningServer } from '../config.ts';
import { openConfiguredDatabase } from '../db/context.ts';
import { DatabaseLockedError } from '../db/index.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { isAppError } from '../http/errors.ts';
import { runCli } from './run.ts';

await runCli('admin:invite', async () => {
  const email = process.argv[2];
  if (!email || process.argv.length > 3) {
    console.error('Usage: npm run admin:invite -- <email>');
    process.exitCode = 1;
    return;
  }
  const config = loadConfig();
  const explicit = Boolean(process.env['PUBLIC_SITE_URL']?.trim() || process.env['PORT']?.trim());
  const running = readRunningServer(config.dataDir);
  const siteUrl = explicit ? config.siteUrl : (running?.siteUrl ?? config.siteUrl);

  let handle;
  try {
    handle = await openConfiguredDatabase(config);
  } catch (error) {
    if (!(error instanceof DatabaseLockedError)) throw error;
    console.error(
      [
        `admin:invite: the shop's server (process ${error.holderPid}) holds the embedded database, which only one process may open.`,
        'Stop the server (Ctrl+C in its terminal), run this command again, then start the shop with `npm start`: the link stays valid 72 hours.',
        'With PostgreSQL (DATABASE_URL) the command works while the server runs.',
      ].join('\n'),
    );
    process.exitCode = 1;
    return;
  }
  try {
    await migrateToLatest(handle.db);
    const invitation = await createAdminInvitation(handle.db, email, { siteUrl });
    console.log(
      `Invitation for ${invitation.email}, single use, valid until ${invitation.expiresAt.toISOString()}:`,
    );
    console.log(invitation.url);
    if (!explicit && !running)
      console.log(
        `(The link uses ${siteUrl}. If the shop runs elsewhere, run this again with PUBLIC_SITE_URL=<its address>, or PORT=<its port>.)`,
      );
  } catch (error) {
    if (!isAppError(error)) throw error;
    console.error(`admin:invite failed: ${error.message}`);
    process.exitCode = 1;
  } finally {
    await handle.close();
  }
});
