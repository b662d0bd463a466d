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
    expect(publisher.status()).toEqual({
      state: 'failed',
      version: 'v1',
      lastSuccessAt: ok.lastSuccessAt,
      lastError: 'Could not resolve "./Missing.astro" (build 2)',
      pending: false,
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
