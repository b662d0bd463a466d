// A build started ahead of the next publish (docs/decisions/056). Each publish's `astro build`
// first spends seconds that do not depend on the catalogue — Node, Astro, Vite and the
// integrations loaded, the config resolved, the content layer set up — before its content loader
// reads the snapshot (./index.ts `startBuild`). A standby build does that while the owner is
// still editing: started when a signed-in administrator is at work and after each publish, it
// waits, at the build's low priority, for the catalogue the next publish hands it.
//
// One at a time, never while a publish builds (the build holds the work pages a publish copies
// instead of rendering: the next one takes them once they are handed on). A standby whose child
// has stopped is dropped and the publish starts its own build; the server abandons the one it
// holds when it stops.
import { startBuild, type BuildOptions, type StartedBuild } from './index.ts';

export class StandbyBuild {
  private held: StartedBuild | undefined;
  private starting: Promise<void> | undefined;
  private building = 0;
  private stopped = false;
  private readonly options: BuildOptions;
  private readonly onError: (error: unknown) => void;
  private readonly start: (options: BuildOptions) => Promise<StartedBuild>;

  constructor(
    options: BuildOptions,
    hooks: {
      /** PUBLISH_AHEAD=off (api/config.ts): never started, every publish starts its own. */
      enabled?: boolean;
      onError?: (error: unknown) => void;
      /** Starts a build (tests give their own). */
      start?: (options: BuildOptions) => Promise<StartedBuild>;
    } = {},
  ) {
    this.options = options;
    this.stopped = hooks.enabled === false;
    this.onError = hooks.onError ?? (() => {});
    this.start = hooks.start ?? startBuild;
  }

  /** Starts a standby build unless one is held, being started, or a publish is building. */
  prepare(): void {
    if (this.stopped || this.held || this.starting || this.building > 0) return;
    this.starting = this.start(this.options)
      .then(async (build) => {
        if (this.stopped) await build.abandon();
        else this.held = build;
      })
      .catch(this.onError)
      .finally(() => (this.starting = undefined));
  }

  /** The standby build for a publish that needs one, if it is still there to finish. */
  take(): StartedBuild | undefined {
    const build = this.held;
    this.held = undefined;
    if (build && !build.running) {
      void build.abandon().catch(this.onError);
      return undefined;
    }
    return build;
  }

  /** Runs a publish: no standby is started meanwhile; the next one once it is done. */
  async around<T>(publish: () => Promise<T>): Promise<T> {
    this.building += 1;
    try {
      // One being started is held first, so that this publish takes it.
      await this.starting;
      return await publish();
    } finally {
      this.building -= 1;
      this.prepare();
    }
  }

  /** The server stops: the standby build goes with it. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.starting;
    const build = this.held;
    this.held = undefined;
    await build?.abandon();
  }
}
