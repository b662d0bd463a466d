// `npm run admin:invite -- <email>`: creates a single-use administrator invitation valid 72 hours
// and prints its link (no default credential exists anywhere). With the embedded database, stop
// the server first: only one process may open it.
import { createAdminInvitation } from '../accounts/invitations.ts';
import { loadConfig } from '../config.ts';
import { openConfiguredDatabase } from '../db/context.ts';
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
  const handle = await openConfiguredDatabase(config);
  try {
    await migrateToLatest(handle.db);
    const invitation = await createAdminInvitation(handle.db, email, { siteUrl: config.siteUrl });
    console.log(
      `Invitation for ${invitation.email}, single use, valid until ${invitation.expiresAt.toISOString()}:`,
    );
    console.log(invitation.url);
  } catch (error) {
    if (!isAppError(error)) throw error;
    console.error(`admin:invite failed: ${error.message}`);
    process.exitCode = 1;
  } finally {
    await handle.close();
  }
});
