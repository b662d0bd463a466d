// `npm run admin:invite -- <email>`: creates a single-use administrator invitation valid 72 hours
// and prints its link (no default credential exists anywhere). The link points at the shop: the
// PUBLIC_SITE_URL / PORT given, else the address the running server recorded, else the default.
// With PostgreSQL it writes the invitation itself, server running or not; with the embedded
// database a running server holds it, so the command asks that server over its local channel
// (api/accounts/admin-channel.ts, docs/decisions/048) and prints the link the server made.
import { askServerForInvitation } from '../accounts/admin-channel.ts';
import { createAdminInvitation, type Invitation } from '../accounts/invitations.ts';
import { loadConfig, readRunningServer } from '../config.ts';
import { openConfiguredDatabase } from '../db/context.ts';
import { DatabaseLockedError } from '../db/index.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { isAppError } from '../http/errors.ts';
import { runCli } from './run.ts';

function printInvitation(invitation: Invitation): void {
  console.log(
    `Invitation for ${invitation.email}, single use, valid until ${invitation.expiresAt.toISOString()}:`,
  );
  console.log(invitation.url);
}

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
    // The server holding the embedded database makes the invitation (its own link address).
    const asked = await askServerForInvitation(config.dataDir, email, error.holderPid);
    if (asked.ok) {
      printInvitation(asked.invitation);
      return;
    }
    console.error(
      asked.reason === 'refused'
        ? `admin:invite failed: ${asked.message}`
        : [
            `admin:invite: the shop's server (process ${error.holderPid}) holds the embedded database, which only one process may open, and ${asked.message}.`,
            'Stop the server (Ctrl+C in its terminal), run this command again, then start the shop with `npm start`: the link stays valid 72 hours.',
          ].join('\n'),
    );
    process.exitCode = 1;
    return;
  }
  try {
    await migrateToLatest(handle.db);
    printInvitation(await createAdminInvitation(handle.db, email, { siteUrl }));
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
