// The publish queue against fake timers and builds that end when the test says: what is checked
// is the order of events (debounce, coalescing, one build at a time), never how long they took.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Publisher } from './publisher.ts';

/** Builds that run until `finish()` ends the oldest one (or at once with `auto`). */
function fakeBuilds(options: { auto?: boolean; fail?: (n: number) => boolean } = {}) {
  const builds: number[] = [];
  const forces: boolean[] = [];
  const running: (() => void)[] = [];
  let concurrent = 0;
  let maxConcurrent = 0;
  return {
    builds,
    forces,
    get maxConcurrent() {
      return maxConcurrent;
    },
    /** Ends the oldest running build; lets the queue react before returning. */
    async finish() {
      const end = running.shift();
      if (!end) throw new Error('no build is running');
      end();
      await vi.advanceTimersByTimeAsync(0);
    },
    publish: async (_signal: AbortSignal, { force }: { force: boolean }) => {
      const n = builds.length + 1;
      builds.push(n);
      forces.push(force);
      concurrent += 1;
      maxConcurrent = Math.max(maxConcurrent, concurrent);
      if (!options.auto) await new Promise<void>((resolve) => running.push(resolve));
      concurrent -= 1;
      if (options.fail?.(n)) throw new Error(`Could not resolve "./Missing.astro" (build ${n})`);
      return `v${n}`;
    },
  };
}

const advance = (ms: number) => vi.advanceTimersByTimeAsync(ms);

describe('the publish queue', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('turns three changes within one second into one build', async () => {
    const fake = fakeBuilds();
    const publisher = new Publisher({ publish: fake.publish, debounceMs: 100 });
    publisher.request('a');
    await advance(30);
    publisher.request('b');
    await advance(30);
    publisher.request('c');
    expect(publisher.status().state).toBe('queued');
    await advance(99);
    expect(fake.builds).toEqual([]);
    await advance(1);
    expect(publisher.status().state).toBe('building');
    await fake.finish();
    await publisher.settled();
    expect(fake.builds).toEqual([1]);
    expect(publisher.status()).toMatchObject({ state: 'idle', version: 'v1', lastError: null });
    expect(publisher.status().lastSuccessAt).not.toBeNull();
  });

  it('runs exactly one more build for changes made during a build, never two at once', async () => {
    const fake = fakeBuilds();
    const publisher = new Publisher({ publish: fake.publish, debounceMs: 20 });
    publisher.request();
    await advance(20);
    expect(publisher.status().state).toBe('building');
    publisher.request();
    publisher.request();
    publisher.request();
    expect(publisher.status()).toMatchObject({ state: 'building', pending: true });
    await advance(1000);
    expect(fake.builds).toEqual([1]);
    await fake.finish();
    await advance(20);
    expect(fake.builds).toEqual([1, 2]);
    await fake.finish();
    await publisher.settled();
    expect(fake.builds).toEqual([1, 2]);
    expect(fake.maxConcurrent).toBe(1);
    expect(publisher.status().version).toBe('v2');
  });

  it('reports a failed build with its error line and keeps the served version', async () => {
    const fake = fakeBuilds({ auto: true, fail: (n) => n === 2 });
    const publisher = new Publisher({
      publish: fake.publish,
      debounceMs: 10,
      describe: (e) => (e as Error).message,
    });
    publisher.request();
    await advance(10);
    await publisher.settled();
    const ok = publisher.status();
    publisher.request();
    await advance(10);
    await publisher.settled();
    expect(publisher.status()).toMatchObject({
      state: 'failed',
      version: 'v1',
      lastSuccessAt: ok.lastSuccessAt,
      lastError: 'Could not resolve "./Missing.astro" (build 2)',
      pending: false,
      changes: [],
      etaMs: null,
    });
    publisher.request();
    await advance(10);
    await publisher.settled();
    expect(publisher.status()).toMatchObject({ state: 'idle', version: 'v3', lastError: null });
  });

  it('still publishes during a steady stream of changes (maximum wait)', async () => {
    const fake = fakeBuilds({ auto: true });
    const publisher = new Publisher({ publish: fake.publish, debounceMs: 100, maxWaitMs: 200 });
    for (let i = 0; i < 12; i += 1) {
      publisher.request();
      await advance(30);
    }
    expect(fake.builds.length).toBeGreaterThanOrEqual(1);
    await publisher.close();
  });

  it('tells the build whether a request forced it, and carries that to the build after', async () => {
    const fake = fakeBuilds();
    const publisher = new Publisher({ publish: fake.publish, debounceMs: 20 });
    publisher.request('order paid');
    await advance(20);
    expect(publisher.status().state).toBe('building');
    publisher.request('requested by hand', { force: true });
    publisher.request('order paid');
    await fake.finish();
    await advance(20);
    await fake.finish();
    await publisher.settled();
    publisher.request('order paid');
    await advance(20);
    await fake.finish();
    await publisher.settled();
    expect(fake.forces).toEqual([false, true, false]);
  });

  it('drops queued work when closed', async () => {
    const fake = fakeBuilds({ auto: true });
    const publisher = new Publisher({ publish: fake.publish, debounceMs: 50 });
    publisher.request();
    await publisher.close();
    await advance(1000);
    expect(fake.builds).toEqual([]);
  });
});

describe('what the status tells the owner', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('names the changes queued and being built, each once, and what was last published', async () => {
    const fake = fakeBuilds();
    const publisher = new Publisher({ publish: fake.publish, debounceMs: 20 });
    expect(publisher.status()).toMatchObject({ changes: [], changeCount: 0, lastChanges: [] });
    publisher.request('artwork 3 changed', { change: { kind: 'work', title: "Vent d'Alentejo" } });
    publisher.request('artwork 3 changed', { change: { kind: 'work', title: "Vent d'Alentejo" } });
    publisher.request('settings about_fr');
    expect(publisher.status()).toMatchObject({
      state: 'queued',
      changes: [{ kind: 'work', title: "Vent d'Alentejo" }, { kind: 'settings' }],
      changeCount: 2,
    });
    await advance(20);
    publisher.request('order paid');
    expect(publisher.status()).toMatchObject({
      state: 'building',
      pending: true,
      changes: [
        { kind: 'work', title: "Vent d'Alentejo" },
        { kind: 'settings' },
        { kind: 'sales' },
      ],
    });
    await fake.finish();
    // The first build is live; the sale waits for the next one.
    expect(publisher.status()).toMatchObject({
      changes: [{ kind: 'sales' }],
      lastChanges: [{ kind: 'work', title: "Vent d'Alentejo" }, { kind: 'settings' }],
    });
    await advance(20);
    await fake.finish();
    await publisher.settled();
    expect(publisher.status()).toMatchObject({
      state: 'idle',
      changes: [],
      etaMs: null,
      lastChanges: [{ kind: 'sales' }],
    });
  });

  it('names a change its caller did not label from the reason', async () => {
    const { changeOf } = await import('./publisher.ts');
    expect(changeOf('settings site_title, about_fr')).toEqual({ kind: 'settings' });
    expect(changeOf('order 2026-0001 cancelled, works back on sale')).toEqual({ kind: 'sales' });
    expect(changeOf('requested by hand', { force: true })).toEqual({ kind: 'manual' });
    expect(changeOf('artworks reordered')).toEqual({ kind: 'order-of-works' });
    expect(changeOf(undefined)).toEqual({ kind: 'other' });
    expect(changeOf('x', { change: { kind: 'works', count: 3 } })).toEqual({
      kind: 'works',
      count: 3,
    });
  });

  it('keeps the changes of a failed build for the next publish', async () => {
    const fake = fakeBuilds({ auto: true, fail: (n) => n === 1 });
    const publisher = new Publisher({ publish: fake.publish, debounceMs: 10 });
    publisher.request('a', { change: { kind: 'work', title: 'Seuil' } });
    await advance(10);
    await publisher.settled();
    expect(publisher.status()).toMatchObject({ state: 'failed', changes: [] });
    publisher.request('b', { change: { kind: 'settings' } });
    expect(publisher.status().changes).toEqual([
      { kind: 'work', title: 'Seuil' },
      { kind: 'settings' },
    ]);
    await advance(10);
    await publisher.settled();
    expect(publisher.status().lastChanges).toEqual([
      { kind: 'work', title: 'Seuil' },
      { kind: 'settings' },
    ]);
  });

  it('estimates when the changes will be live from the last builds that made a version', async () => {
    let version = 0;
    let release: (() => void) | undefined;
    let sameVersion = false;
    const publish = async () => {
      await new Promise<void>((resolve) => (release = resolve));
      if (!sameVersion) version += 1;
      return `v${version}`;
    };
    const publisher = new Publisher({ publish, debounceMs: 300, durations: [4000] });
    expect(publisher.status().buildMs).toBe(4000);
    publisher.request('a');
    // Queued: the debounce left, then a build as long as the estimate.
    expect(publisher.status().etaMs).toBe(4300);
    await advance(100);
    expect(publisher.status().etaMs).toBe(4200);
    await advance(200);
    expect(publisher.status()).toMatchObject({ state: 'building', etaMs: 4000 });
    await advance(1000);
    expect(publisher.status().etaMs).toBe(3000);
    // A change during the build waits for it, the debounce and one more build.
    publisher.request('b');
    expect(publisher.status().etaMs).toBe(3000 + 300 + 4000);
    // A late build is said to end soon, never to have ended.
    await advance(5000);
    release!();
    await advance(0);
    // Measured: 6000 ms; the median of 4000 and 6000 is 5000.
    expect(publisher.status().buildMs).toBe(5000);
    await advance(300);
    await advance(4999);
    expect(publisher.status()).toMatchObject({ state: 'building', etaMs: 500 });
    release!();
    await publisher.settled();
    // A publish that served the same version on (nothing a page shows changed) is not a build.
    sameVersion = true;
    publisher.request('c');
    await advance(300);
    await advance(100);
    release!();
    await publisher.settled();
    expect(publisher.status()).toMatchObject({ state: 'idle', etaMs: null });
    // Builds of 4000, 6000 and 4999 ms: the median (the 100-ms no-op left out).
    expect(publisher.status().buildMs).toBe(4999);
  });

  it('assumes a default build duration before measuring one', async () => {
    const { DEFAULT_BUILD_MS } = await import('./publisher.ts');
    const publisher = new Publisher({ publish: () => Promise.resolve('v1'), debounceMs: 300 });
    expect(publisher.status().buildMs).toBe(DEFAULT_BUILD_MS);
    publisher.request();
    expect(publisher.status().etaMs).toBe(DEFAULT_BUILD_MS + 300);
    await publisher.close();
  });
});

describe('the failure line shown to the owner', () => {
  it('is the error and its details, not the hints, links or stack', async () => {
    const { lastMeaningfulLine } = await import('./index.ts');
    expect(
      lastMeaningfulLine([
        '14:45:59 [content] Syncing content',
        '[InvalidContentEntryDataError] site → settings data does not match collection schema.',
        '  contact_email: Invalid email address',
        '  Hint:',
        '    See https://docs.astro.build/en/guides/content-collections/ for more information.',
        '  Error reference:',
        '    https://docs.astro.build/en/reference/errors/invalid-content-entry-data-error/',
        '  Stack trace:',
        '    at getEntryData (/work/node_modules/astro/dist/content/utils.js:126:9)',
      ]),
    ).toBe(
      '[InvalidContentEntryDataError] site → settings data does not match collection schema. contact_email: Invalid email address',
    );
    expect(lastMeaningfulLine(['building…', 'something went wrong'])).toBe('something went wrong');
  });
});
