// What a node sees of the settings saved by the others (api/cluster/follow.ts): the settings
// fingerprint it compares once a second changes with every save, also when a setting goes back to
// the value it had at the last look — maintenance switched on and off again within the second
// left the node that saved "on" closed until it restarted (found by two-nodes.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settingsFingerprint } from '#api/cluster/follow.ts';
import { saveSettings } from '#api/settings/index.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';

let t: TestDatabase;

beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t?.dispose());

describe('the settings fingerprint the nodes follow', { tags: ['cluster'] }, () => {
  it('changes with every save, a switch back to the earlier value included', async () => {
    // A stored row for maintenance, off: the state a site is in once it has been closed once.
    await saveSettings(t.db, { site_maintenance: true, site_title: 'Atelier' });
    await saveSettings(t.db, { site_maintenance: false });
    const before = await settingsFingerprint(t.db);
    expect(await settingsFingerprint(t.db)).toBe(before);

    await saveSettings(t.db, { site_maintenance: true });
    const on = await settingsFingerprint(t.db);
    expect(on).not.toBe(before);

    await saveSettings(t.db, { site_maintenance: false });
    const off = await settingsFingerprint(t.db);
    expect(off).not.toBe(on);
    expect(off).not.toBe(before);
  });

  it('does not change when a save changes nothing', async () => {
    const before = await settingsFingerprint(t.db);
    const { changed } = await saveSettings(t.db, { site_title: 'Atelier' });
    expect(changed).toEqual([]);
    expect(await settingsFingerprint(t.db)).toBe(before);
  });
});
