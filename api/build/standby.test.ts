import { describe, expect, it } from 'vitest';
import type { BuildOptions, StartedBuild } from './index.ts';
import { StandbyBuild } from './standby.ts';

const OPTIONS: BuildOptions = { root: '/nowhere', dist: '/nowhere/dist', siteUrl: 'http://shop' };

/** Builds that only record what happens to them. */
function fakeBuilds() {
  const started: { running: boolean; abandoned: boolean; build: StartedBuild }[] = [];
  let release: (() => void) | undefined;
  let held = false;
  const start = async (): Promise<StartedBuild> => {
    if (held) await new Promise<void>((resolve) => (release = resolve));
    const entry = { running: true, abandoned: false, build: undefined as unknown as StartedBuild };
    entry.build = {
      get running() {
        return entry.running;
      },
      finish: () => Promise.reject(new Error('not in these tests')),
      abandon: () => {
        entry.abandoned = true;
        entry.running = false;
        return Promise.resolve();
      },
    };
    started.push(entry);
    return entry.build;
  };
  return {
    started,
    start,
    /** The next start waits until `release()`. */
    hold: () => (held = true),
    release: () => {
      held = false;
      release?.();
    },
  };
}

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('a build started ahead of the next publish', () => {
  it('starts one, once, and hands it to the publish that needs a build', async () => {
    const fake = fakeBuilds();
    const standby = new StandbyBuild(OPTIONS, { start: fake.start });
    standby.prepare();
    standby.prepare();
    await settled();
    expect(fake.started).toHaveLength(1);
    standby.prepare();
    await settled();
    expect(fake.started).toHaveLength(1);
    expect(standby.take()).toBe(fake.started[0]!.build);
    expect(standby.take()).toBeUndefined();
  });

  it('never starts while a publish builds, and starts the next one when it is done', async () => {
    const fake = fakeBuilds();
    const standby = new StandbyBuild(OPTIONS, { start: fake.start });
    let during = -1;
    await standby.around(async () => {
      standby.prepare();
      await settled();
      during = fake.started.length;
    });
    expect(during).toBe(0);
    await settled();
    expect(fake.started).toHaveLength(1);
  });

  it('a publish waits for one being started, so that it can take it', async () => {
    const fake = fakeBuilds();
    const standby = new StandbyBuild(OPTIONS, { start: fake.start });
    fake.hold();
    standby.prepare();
    let taken: StartedBuild | undefined;
    const publishing = standby.around(() => Promise.resolve((taken = standby.take())));
    await settled();
    expect(taken).toBeUndefined();
    fake.release();
    await publishing;
    expect(taken).toBe(fake.started[0]!.build);
    expect(fake.started[0]!.abandoned).toBe(false);
  });

  it('drops one whose build stopped: the publish starts its own', async () => {
    const fake = fakeBuilds();
    const standby = new StandbyBuild(OPTIONS, { start: fake.start });
    standby.prepare();
    await settled();
    fake.started[0]!.running = false;
    expect(standby.take()).toBeUndefined();
    await settled();
    expect(fake.started[0]!.abandoned).toBe(true);
  });

  it('is abandoned when the server stops, even while it is being started, and none follows', async () => {
    const fake = fakeBuilds();
    const standby = new StandbyBuild(OPTIONS, { start: fake.start });
    fake.hold();
    standby.prepare();
    const stopping = standby.stop();
    fake.release();
    await stopping;
    expect(fake.started[0]!.abandoned).toBe(true);
    standby.prepare();
    await settled();
    expect(fake.started).toHaveLength(1);
  });

  it('says why one could not start, and starts again when asked', async () => {
    const errors: unknown[] = [];
    let fail = true;
    const fake = fakeBuilds();
    const standby = new StandbyBuild(OPTIONS, {
      start: () => (fail ? Promise.reject(new Error('no astro here')) : fake.start()),
      onError: (error) => errors.push(error),
    });
    standby.prepare();
    await settled();
    expect(errors).toHaveLength(1);
    expect(standby.take()).toBeUndefined();
    fail = false;
    standby.prepare();
    await settled();
    expect(standby.take()).toBe(fake.started[0]!.build);
  });

  it('is never started when switched off (PUBLISH_AHEAD=off)', async () => {
    const fake = fakeBuilds();
    const standby = new StandbyBuild(OPTIONS, { start: fake.start, enabled: false });
    standby.prepare();
    await standby.around(() => Promise.resolve());
    await settled();
    expect(fake.started).toHaveLength(0);
    expect(standby.take()).toBeUndefined();
  });
});
