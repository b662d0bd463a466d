// Issue 14 §3, "Faults, on purpose" (the shop and its tools: tests/helpers/faults.ts): the real
// server is killed with SIGKILL at a moment a shop can least afford, and started again on the
// same DATA_DIR and dist folder. Then the orders, holds, stock, invoices and mails — counted once
// the server is stopped — and the served site must show nothing lost and nothing done twice.
// Moments inside one request are reached through the server's test fault points (api/faults.ts,
// GALERIE_FAULT_PAUSE): the process says it got there and waits, and is killed there.
//
// Here: a publish killed while its build runs.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listVersions, readCurrent, versionDir, versionsDir } from '#api/build/versions.ts';
import { testDbKind } from '../helpers/db.ts';
import { commandLine, descendants, FaultShop, running } from '../helpers/faults.ts';
import { until } from '../helpers/wait.ts';

// Processes, not the database kind, are under test: run on the embedded database.
describe.skipIf(testDbKind() !== 'pglite')('a server killed with SIGKILL and started again', () => {
  let shop: FaultShop;
  beforeAll(async () => {
    shop = await FaultShop.open('faults-publish');
  });
  afterAll(() => shop?.close());

  // ── 4. During a publish ──────────────────────────────────────────────────────────────────────

  it('serves the last complete version after a kill during a publish, leaves no build running, and publishes again', async () => {
    await shop.start();
    const headers = { cookie: shop.admin };
    const owner = shop.visitor(headers);
    const served = readCurrent(shop.dist)!;
    const title = `Faute publiée ${Date.now().toString(36)}`;
    const changed = await owner.call('PATCH', `/api/admin/artworks/${shop.works['O5']}`, {
      title: { fr: title, en: title },
    });
    expect(changed.status, changed.text).toBe(200);
    expect((await owner.call('POST', '/api/admin/publish')).status).toBe(202);
    // Until it is built whole, the version served is the one before the change.
    const before = await shop.visitor().call('GET', '/gallery');
    expect(before.status).toBe(200);
    expect(before.text).not.toContain(title);
    // The build runs in a child process (astro build, under `nice`): kill the server under it.
    await until('the publish build to start writing its version', () =>
      fs.readdirSync(versionsDir(shop.dist)).some((n) => n.startsWith('.partial-')),
    );
    const builders = descendants(shop.server!.child.pid!);
    expect(builders.map(commandLine).join('\n')).toContain('astro.mjs build');
    await shop.kill9();
    const killed = fs.readdirSync(versionsDir(shop.dist)).find((n) => n.startsWith('.partial-'))!;

    // Nothing the build wrote is served: `current` still names the complete version served.
    expect(readCurrent(shop.dist)).toBe(served);
    expect(fs.existsSync(path.join(versionDir(shop.dist, served), 'build-info.json'))).toBe(true);
    // The build does not outlive its server (it would go on writing, and take a core).
    // It learns its server is gone when it next writes its output (to a pipe nobody reads now),
    // and ends there: it never gets as far as rendering the pages into its folder.
    await until(
      `the build processes ${builders.join(', ')} to end with their server`,
      () => builders.every((pid) => !running(pid)),
      300_000,
    );
    expect(fs.existsSync(path.join(versionsDir(shop.dist), killed, 'client', 'index.html'))).toBe(
      false,
    );

    await shop.start();
    // The change was not published before the kill: the restart builds it before serving.
    expect(shop.server!.output()).toContain('built the site (the catalogue changed)');
    const current = readCurrent(shop.dist)!;
    expect(current).not.toBe(served);
    for (const page of ['/', '/gallery', '/en/gallery']) {
      const reply = await shop.visitor().call('GET', page);
      expect(reply.status, page).toBe(200);
      expect(reply.text, page).toMatch(/<\/html>\s*$/);
    }
    expect((await shop.visitor().call('GET', '/gallery')).text).toContain(title);
    // No half-written version is left, and the previous one is kept.
    expect(fs.readdirSync(versionsDir(shop.dist)).filter((n) => n.startsWith('.partial-'))).toEqual(
      [],
    );
    expect(listVersions(shop.dist)).toEqual([served, current].sort());

    // Publishing by hand works again.
    expect((await owner.call('POST', '/api/admin/publish')).status).toBe(202);
    const status = await until(
      'the publish asked again to finish',
      async () => {
        const s = (await owner.call('GET', '/api/admin/publish')).json as {
          state: string;
          version: string;
        };
        return s.state === 'idle' && s.version !== current && s;
      },
      600_000,
    );
    expect(readCurrent(shop.dist)).toBe(status.version);
    expect((await shop.visitor().call('GET', '/gallery')).text).toContain(title);
  });
});
