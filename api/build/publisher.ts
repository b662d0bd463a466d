// The publish queue (docs/decisions/012): any change that alters a prerendered page asks for a
// publish; requests are debounced and coalesced, and never two builds run at once. A change made
// during a build causes exactly one more build after it. A failed build serves nothing new and is
// reported until the next publish succeeds.
export type PublishState = 'idle' | 'queued' | 'building' | 'failed';

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
}

export interface PublishRequest {
  /**
   * Build even when the pages would not change (a publish asked for by hand). Otherwise the
   * publish may serve the current version on when its catalogue snapshot still matches.
   */
  force?: boolean;
}

export interface PublisherOptions {
  /**
   * Builds and swaps in a new version, or keeps the served one when nothing a page shows changed
   * and no request forced a build; returns the served version's id. Rejects to report a failure.
   */
  publish: (signal: AbortSignal, request: Required<PublishRequest>) => Promise<string>;
  /** A failure's one line for the owner (BuildError.lastLine, else the message). */
  describe?: (error: unknown) => string;
  debounceMs?: number;
  /** A steady stream of changes still publishes at least this often. */
  maxWaitMs?: number;
  log?: (line: string) => void;
  now?: () => Date;
  initial?: { version: string | null; lastSuccessAt: string | null };
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
  private readonly debounceMs: number;
  private readonly maxWaitMs: number;
  private readonly now: () => Date;

  private readonly options: PublisherOptions;

  constructor(options: PublisherOptions) {
    this.options = options;
    this.debounceMs = options.debounceMs ?? 1000;
    this.maxWaitMs = options.maxWaitMs ?? 5000;
    this.now = options.now ?? (() => new Date());
    this.version = options.initial?.version ?? null;
    this.lastSuccessAt = options.initial?.lastSuccessAt ?? null;
  }

  status(): PublishStatus {
    return {
      state: this.state,
      lastSuccessAt: this.lastSuccessAt,
      lastError: this.state === 'failed' ? this.lastError : null,
      version: this.version,
      pending: this.pending,
    };
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
    this.timer = setTimeout(() => this.run(), delay);
  }

  private run(): void {
    this.timer = undefined;
    this.firstRequestAt = null;
    this.state = 'building';
    const force = this.forced;
    this.forced = false;
    this.running = (async () => {
      try {
        this.version = await this.options.publish(this.abort.signal, { force });
        this.lastSuccessAt = this.now().toISOString();
        this.lastError = null;
        this.state = 'idle';
      } catch (error) {
        this.lastError = this.options.describe?.(error) ?? String(error);
        this.state = 'failed';
        if (!this.closed) this.options.log?.(`publish failed: ${this.lastError}`);
      }
    })();
    void this.running.then(() => {
      this.running = null;
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
