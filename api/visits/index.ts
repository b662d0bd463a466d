// Private visit counts (issue 12 item 9): no cookie, no script, no third party, nothing personal
// stored. The HTTP layer hands every request to `observe`, which keeps only what could be a page
// view and looks at the response once it has finished; views are tallied in memory and written in
// one transaction every few seconds and at shutdown, so counting costs the request nothing and a
// database failure never reaches a visitor.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseSessionToken, SESSION_COOKIE, sessionCookieName } from '../accounts/sessions.ts';
import { systemClock, type Clock } from '../clock.ts';
import { log } from '../log.ts';
import { cookieValue, countedPath, isPageResponse, mayBeView, workKeyOf } from './filter.ts';
import type { VisitBatch, VisitStore } from './store.ts';
import { clientAddress, DailySalt, parisDay, visitorHash } from './visitor.ts';

export { databaseStore, type VisitBatch, type VisitStore } from './store.ts';

/** Bounds on what memory and the tables can hold, whatever requests arrive. */
export const LIMITS = {
  /** Distinct paths and distinct works counted per day (a gallery has far fewer pages). */
  pathsPerDay: 2000,
  worksPerDay: 2000,
  /** Today's visitor hashes remembered to skip repeats; past that, the database deduplicates. */
  visitorsInMemory: 100_000,
  /** Sessions whose role is remembered, and for how long. */
  adminSessions: 1000,
  adminSessionMs: 5 * 60_000,
};

export const FLUSH_EVERY_MS = 10_000;

export interface VisitCounterOptions {
  store: VisitStore;
  now?: Clock;
  /** One line per problem; the server's log (api/log.ts) by default. */
  log?: (line: string) => void;
  /** The salt's source (tests give a fixed one). */
  random?: (size: number) => Buffer;
}

interface View {
  day: string;
  path: string;
  work: string | null;
  /** The visitor's hash, hex. */
  visitor: string;
}

/** What is waiting to be written for one day. */
interface Tally {
  visits: Map<string, number>;
  works: Map<string, number>;
  visitors: Set<string>;
}

const newTally = (): Tally => ({ visits: new Map(), works: new Map(), visitors: new Set() });

export class VisitCounter {
  readonly #store: VisitStore;
  readonly #now: Clock;
  readonly #log: (line: string) => void;
  readonly #salt: DailySalt;
  #pending = new Map<string, Tally>();
  /** What the current day has already counted: to skip repeat visitors and bound new keys. */
  #today = {
    day: '',
    visitors: new Set<string>(),
    paths: new Set<string>(),
    works: new Set<string>(),
  };
  readonly #connections = new WeakMap<
    object,
    { day: string; address: string; userAgent: string; visitor: string }
  >();
  readonly #admins = new Map<string, { admin: boolean; until: number }>();
  readonly #lookups = new Map<string, Promise<boolean>>();
  readonly #waiting = new Set<Promise<void>>();
  #cleanedDay: string | null = null;
  #flushing: Promise<void> = Promise.resolve();
  #timer: NodeJS.Timeout | undefined;
  #failing = false;
  #stopped = false;

  constructor(options: VisitCounterOptions) {
    this.#store = options.store;
    this.#now = options.now ?? systemClock;
    this.#log = options.log ?? ((line) => log.error(line));
    this.#salt = new DailySalt(options.random);
  }

  /** Called once per request before it is answered: a few header checks, nothing else. */
  observe(req: IncomingMessage, res: ServerResponse, pathname: string, contentType?: string): void {
    if (this.#stopped) return;
    try {
      if (mayBeView(req.method, pathname, req.headers))
        res.on('finish', () => this.#finished(req, res, pathname, contentType)); // emitted once
    } catch (error) {
      this.#log(`Galerie: visit counting skipped a request: ${String(error)}`);
    }
  }

  /** Writes every view so far; resolves even when the database refuses (logged, retried later). */
  flush(): Promise<void> {
    const run = this.#flushing.then(() => this.#flushOnce());
    this.#flushing = run.catch(() => {});
    return run;
  }

  /** Flushes every `everyMs` until `stop`. */
  start(everyMs: number = FLUSH_EVERY_MS): void {
    this.#timer ??= setInterval(() => void this.flush(), everyMs);
    this.#timer.unref();
  }

  /** At shutdown, once no request is in flight: the last views are written. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.flush();
  }

  /** `contentType`: what the HTTP layer answered, when the response does not keep its headers. */
  #finished(
    req: IncomingMessage,
    res: ServerResponse,
    pathname: string,
    contentType?: string,
  ): void {
    try {
      if (!isPageResponse(res.statusCode, contentType ?? res.getHeader('content-type'))) return;
      const path = countedPath(pathname);
      if (path === null) return;
      const now = this.#now();
      const day = parisDay(now);
      const view: View = {
        day,
        path,
        work: workKeyOf(path, req.url ?? ''),
        visitor: this.#visitor(req, day),
      };
      // Administrators are not visitors. Only a request with a session cookie can be one; the
      // role is looked up here, after the response, and remembered for a few minutes.
      // Either name (decision 038): this only decides whether a view is counted, and a bare
      // cookie's token must still be an administrator's session to leave a view out.
      const token =
        cookieValue(req.headers.cookie, sessionCookieName(true)) ??
        cookieValue(req.headers.cookie, SESSION_COOKIE);
      const session = token ? parseSessionToken(token) : null;
      if (!token || !session) {
        this.#record(view);
        return;
      }
      const known = this.#admins.get(session.id);
      if (known && known.until > now.getTime()) {
        if (!known.admin) this.#record(view);
        return;
      }
      // A failed lookup drops the view: the database is failing, and flushing will say so.
      const settled = this.#isAdmin(session.id, token, now).then(
        (admin) => {
          if (!admin) this.#record(view);
        },
        () => {},
      );
      this.#waiting.add(settled);
      void settled.finally(() => this.#waiting.delete(settled));
    } catch (error) {
      this.#log(`Galerie: visit counting skipped a request: ${String(error)}`);
    }
  }

  /**
   * The visitor's hash, hex. A browser sends page after page on one keep-alive connection: the
   * hash is remembered on the connection (for as long as it is open) while day, address and user
   * agent stay the same.
   */
  #visitor(req: IncomingMessage, day: string): string {
    const address = clientAddress(req);
    const userAgent = req.headers['user-agent'] ?? '';
    const last = this.#connections.get(req.socket);
    if (last && last.day === day && last.address === address && last.userAgent === userAgent)
      return last.visitor;
    const visitor = visitorHash(this.#salt.for(day), address, userAgent).toString('hex');
    this.#connections.set(req.socket, { day, address, userAgent, visitor });
    return visitor;
  }

  #isAdmin(id: string, token: string, now: Date): Promise<boolean> {
    let lookup = this.#lookups.get(id);
    if (!lookup) {
      lookup = this.#store.isAdminSession(token, now).then((admin) => {
        if (this.#admins.size >= LIMITS.adminSessions && !this.#admins.has(id)) {
          const oldest = this.#admins.keys().next();
          if (!oldest.done) this.#admins.delete(oldest.value);
        }
        this.#admins.set(id, { admin, until: this.#now().getTime() + LIMITS.adminSessionMs });
        return admin;
      });
      this.#lookups.set(id, lookup);
      const forget = () => this.#lookups.delete(id);
      lookup.then(forget, forget);
    }
    return lookup;
  }

  #record(view: View): void {
    const today = this.#today;
    if (view.day > today.day) {
      this.#today = { day: view.day, visitors: new Set(), paths: new Set(), works: new Set() };
      this.#recordToday(view);
    } else if (view.day === today.day) {
      this.#recordToday(view);
    } else {
      // Late (an admin lookup that straddled midnight): counted for its day, no bookkeeping.
      const tally = this.#tally(view.day);
      add(tally.visits, view.path, 1);
      if (view.work) add(tally.works, view.work, 1);
      tally.visitors.add(view.visitor);
    }
  }

  #recordToday(view: View): void {
    const today = this.#today;
    const tally = this.#tally(view.day);
    if (admit(today.paths, view.path, LIMITS.pathsPerDay)) add(tally.visits, view.path, 1);
    if (view.work && admit(today.works, view.work, LIMITS.worksPerDay))
      add(tally.works, view.work, 1);
    if (today.visitors.has(view.visitor)) return;
    if (today.visitors.size < LIMITS.visitorsInMemory) today.visitors.add(view.visitor);
    tally.visitors.add(view.visitor);
  }

  #tally(day: string): Tally {
    let tally = this.#pending.get(day);
    if (!tally) this.#pending.set(day, (tally = newTally()));
    return tally;
  }

  async #flushOnce(): Promise<void> {
    await Promise.allSettled([...this.#waiting]);
    const today = parisDay(this.#now());
    // Past midnight, yesterday's salt and hashes leave memory too, visitors or not.
    this.#salt.retire(today);
    if (this.#today.day < today)
      this.#today = { day: today, visitors: new Set(), paths: new Set(), works: new Set() };
    const taken = this.#pending;
    this.#pending = new Map();
    const batch = toBatch(taken);
    const empty = !batch.visits.length && !batch.works.length && !batch.visitors.length;
    if (empty && this.#cleanedDay === today) return;
    try {
      await this.#store.save(batch, today);
      this.#cleanedDay = today;
      if (this.#failing) this.#log('Galerie: visit counts are being saved again');
      this.#failing = false;
    } catch (error) {
      this.#restore(taken);
      if (!this.#failing)
        this.#log(
          `Galerie: saving visit counts failed, kept in memory and retried (${error instanceof Error ? error.message : String(error)})`,
        );
      this.#failing = true;
    }
  }

  /** A batch the database refused goes back in front of what arrived meanwhile. */
  #restore(taken: Map<string, Tally>): void {
    for (const [day, old] of taken) {
      const tally = this.#tally(day);
      for (const [path, n] of old.visits) add(tally.visits, path, n);
      for (const [work, n] of old.works) add(tally.works, work, n);
      for (const visitor of old.visitors) {
        if (tally.visitors.size >= LIMITS.visitorsInMemory) break;
        tally.visitors.add(visitor);
      }
    }
  }
}

function add(counts: Map<string, number>, key: string, n: number): void {
  counts.set(key, (counts.get(key) ?? 0) + n);
}

/** Whether a key may be counted today: already known, or room left for a new one. */
function admit(known: Set<string>, key: string, limit: number): boolean {
  if (known.has(key)) return true;
  if (known.size >= limit) return false;
  known.add(key);
  return true;
}

function toBatch(pending: Map<string, Tally>): VisitBatch {
  const batch: VisitBatch = { visits: [], works: [], visitors: [] };
  for (const [day, tally] of pending) {
    for (const [path, visits] of tally.visits) batch.visits.push({ day, path, visits });
    for (const [work, views] of tally.works) batch.works.push({ day, work, views });
    if (tally.visitors.size)
      batch.visitors.push({
        day,
        hashes: [...tally.visitors].map((hex) => Buffer.from(hex, 'hex')),
      });
  }
  return batch;
}
