// The publish queue (docs/decisions/012): any change that alters a prerendered page asks for a
// publish; requests are debounced and coalesced, and never two builds run at once. A change made
// during a build causes exactly one more build after it. A failed build serves nothing new and is
// reported until the next publish succeeds. The status says what is being published (the
// changes the requests named) and when it should be live (from the last builds' durations).
export type PublishState = 'idle' | 'queued' | 'building' | 'failed';

/**
 * What a request publishes, for the owner (the back office's pill words it): a work by its title,
 * the order of the works, several works, the settings, sales (a sold work's state), an edition's
 * numbers, everything (by hand), or something else.
 */
export type PublishChange =
  | { kind: 'work'; title: string }
  | { kind: 'works'; count: number }
  | { kind: 'edition'; title: string }
  | { kind: 'order-of-works' | 'settings' | 'sales' | 'manual' | 'other' };

/** The build's duration assumed until one has been measured. */
export const DEFAULT_BUILD_MS = 6000;
/** Builds whose durations the estimate is made from (their median). */
const DURATIONS_KEPT = 5;
/** Changes named in a status; older ones are summed up by the count. */
const CHANGES_SHOWN = 6;

export interface PublishStatus {
  state: PublishState;
  /** ISO time of the last successful publish (or of the version served at start-up). */
  lastSuccessAt: string | null;
  /** The failed build's last error line, while `failed`. */
  lastError: string | null;
  /** Id of the version the server serves. */
  version: string | null;
  /** A publish was asked for while building: one more build follows. */
  pending: boolean;
  /**
   * What is queued or being built, oldest first, each once (at most six; `changeCount` counts
   * them all); empty while idle or failed.
   */
  changes: PublishChange[];
  changeCount: number;
  /** What the last successful publish carried (empty before the first one). */
  lastChanges: PublishChange[];
  /**
   * While queued or building: milliseconds until the changes should be live, from the debounce
   * left, the running build's elapsed time and the median of the last builds' durations.
   */
  etaMs: number | null;
  /** The median duration of the last builds (DEFAULT_BUILD_MS before any). */
  buildMs: number;
}

export interface PublishRequest {
  /**
   * Build even when the pages would not change (a publish asked for by hand). Otherwise the
   * publish may serve the current version on when its catalogue snapshot still matches.
   */
  force?: boolean;
  /** What the change is, for the owner; derived from the reason when absent. */
  change?: PublishChange;
}

/** A request's change when its caller did not name one (`settings …`, `order …`, by hand). */
export function changeOf(reason: string | undefined, options: PublishRequest = {}): PublishChange {
  if (options.change) return options.change;
  if (options.force) return { kind: 'manual' };
  if (reason?.startsWith('settings')) return { kind: 'settings' };
  if (reason && /^(order|sale)\b/.test(reason)) return { kind: 'sales' };
  if (reason && /^artworks? (reordered|order)|moved$/.test(reason))
    return { kind: 'order-of-works' };
  return { kind: 'other' };
}

const sameChange = (a: PublishChange, b: PublishChange) => JSON.stringify(a) === JSON.stringify(b);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : Math.round((sorted[mid - 1]! + sorted[mid]!) / 2);
}

export interface PublisherOptions {
  /**
   * Builds and swaps in a new version, or keeps the served one when nothing a page shows changed
   * and no request forced a build; returns the served version's id. Rejects to report a failure.
   * Only publishes that served a new version count towards the duration estimate.
   */
  publish: (signal: AbortSignal, request: { force: boolean }) => Promise<string>;
  /** A failure's one line for the owner (BuildError.lastLine, else the message). */
  describe?: (error: unknown) => string;
  debounceMs?: number;
  /** A steady stream of changes still publishes at least this often. */
  maxWaitMs?: number;
  log?: (line: string) => void;
  now?: () => Date;
  initial?: { version: string | null; lastSuccessAt: string | null };
  /** Durations of earlier builds (the start-up one, say), to estimate before measuring any. */
  durations?: number[];
}

export class Publisher {
  private state: PublishState = 'idle';
  private lastSuccessAt: string | null;
  private lastError: string | null = null;
  private version: string | null;
  private pending = false;
  /** A request since the last build started asked for a build whatever changed. */
  private forced = false;
  private timer: NodeJS.Timeout | undefined;
  private firstRequestAt: number | null = null;
  private running: Promise<void> | null = null;
  private readonly abort = new AbortController();
  private closed = false;
  private waiters: (() => void)[] = [];
  /** Changes asked for since the last build started, and those the running build publishes. */
  private queuedChanges: PublishChange[] = [];
  private buildingChanges: PublishChange[] = [];
  private lastChanges: PublishChange[] = [];
  private durations: number[] = [];
  private buildStartedAt: number | null = null;
  private dueAt: number | null = null;
  private readonly debounceMs: number;
  private readonly maxWaitMs: number;
  private readonly now: () => Date;

  private readonly options: PublisherOptions;

  constructor(options: PublisherOptions) {
    this.options = options;
    // Short: a save in the back office is one request; a burst (reordering by keyboard) still
    // makes one build, and a steady stream one every maxWaitMs.
    this.debounceMs = options.debounceMs ?? 300;
    this.maxWaitMs = options.maxWaitMs ?? 5000;
    this.now = options.now ?? (() => new Date());
    this.version = options.initial?.version ?? null;
    this.lastSuccessAt = options.initial?.lastSuccessAt ?? null;
    this.durations = (options.durations ?? []).filter((ms) => ms > 0).slice(-DURATIONS_KEPT);
  }

  /** The median of the last builds' durations. */
  buildEstimate(): number {
    return this.durations.length ? median(this.durations) : DEFAULT_BUILD_MS;
  }

  status(): PublishStatus {
    const active = this.state === 'queued' || this.state === 'building';
    const all = active ? this.merge(this.buildingChanges, this.queuedChanges) : [];
    return {
      state: this.state,
      lastSuccessAt: this.lastSuccessAt,
      lastError: this.state === 'failed' ? this.lastError : null,
      version: this.version,
      pending: this.pending,
      changes: all.slice(0, CHANGES_SHOWN),
      changeCount: all.length,
      lastChanges: this.lastChanges.slice(0, CHANGES_SHOWN),
      etaMs: active ? this.eta() : null,
      buildMs: this.buildEstimate(),
    };
  }

  /** Until the changes asked for so far are live: the build running, then the one queued. */
  private eta(): number {
    const now = Date.now();
    const estimate = this.buildEstimate();
    if (this.state === 'queued') return Math.max(0, (this.dueAt ?? now) - now) + estimate;
    // Building: what the estimate leaves of this build (never less than a tenth of it: it is
    // late, not done), then the debounce and a whole build when more changes wait.
    const elapsed = now - (this.buildStartedAt ?? now);
    const left = Math.max(Math.round(estimate / 10), estimate - elapsed);
    return this.pending ? left + this.debounceMs + estimate : left;
  }

  private merge(...lists: PublishChange[][]): PublishChange[] {
    const out: PublishChange[] = [];
    for (const change of lists.flat())
      if (!out.some((c) => sameChange(c, change))) out.push(change);
    return out;
  }

  /**
   * Another node of the cluster published `version` and this server now serves it
   * (docs/decisions/028): the status says so, and a failure of this node's is no longer news.
   */
  adopted(version: string, at: string): void {
    this.version = version;
    this.lastSuccessAt = at;
    if (this.state === 'failed') {
      this.state = 'idle';
      this.lastError = null;
    }
  }

  /** Asks for a publish. Cheap: call it after every committed change a page shows. */
  request(reason?: string, options: PublishRequest = {}): void {
    if (this.closed) return;
    if (reason) this.options.log?.(`publish requested: ${reason}`);
    if (options.force) this.forced = true;
    this.queuedChanges = this.merge(this.queuedChanges, [changeOf(reason, options)]);
    if (this.running) {
      this.pending = true;
      return;
    }
    this.schedule();
  }

  /** Resolves once nothing is queued or building (tests, bench). */
  settled(): Promise<void> {
    if (!this.running && this.timer === undefined) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Stops: a queued publish is dropped, a running build is stopped. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.abort.abort();
    await this.running?.catch(() => {});
    this.wake();
  }

  private schedule(): void {
    const now = Date.now();
    this.firstRequestAt ??= now;
    this.state = 'queued';
    clearTimeout(this.timer);
    const delay = Math.max(
      0,
      Math.min(this.debounceMs, this.firstRequestAt + this.maxWaitMs - now),
    );
    this.dueAt = now + delay;
    this.timer = setTimeout(() => this.run(), delay);
  }

  private run(): void {
    this.timer = undefined;
    this.firstRequestAt = null;
    this.dueAt = null;
    this.state = 'building';
    const force = this.forced;
    this.forced = false;
    this.buildingChanges = this.queuedChanges;
    this.queuedChanges = [];
    const started = Date.now();
    this.buildStartedAt = started;
    const before = this.version;
    this.running = (async () => {
      try {
        this.version = await this.options.publish(this.abort.signal, { force });
        if (this.version !== before) {
          this.durations.push(Date.now() - started);
          if (this.durations.length > DURATIONS_KEPT) this.durations.shift();
        }
        this.lastSuccessAt = this.now().toISOString();
        this.lastError = null;
        this.lastChanges = this.buildingChanges;
        this.state = 'idle';
      } catch (error) {
        this.lastError = this.options.describe?.(error) ?? String(error);
        this.state = 'failed';
        // Not published: the next publish carries them too.
        this.queuedChanges = this.merge(this.buildingChanges, this.queuedChanges);
        if (!this.closed) this.options.log?.(`publish failed: ${this.lastError}`);
      }
    })();
    void this.running.then(() => {
      this.running = null;
      this.buildingChanges = [];
      this.buildStartedAt = null;
      if (this.pending && !this.closed) {
        this.pending = false;
        this.schedule();
      } else this.wake();
    });
  }

  private wake(): void {
    if (this.running || this.timer !== undefined) return;
    for (const resolve of this.waiters.splice(0)) resolve();
  }
}
