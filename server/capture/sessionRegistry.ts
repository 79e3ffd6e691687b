// All sessions of the storage folder as one language-server process (one window) sees
// them. Creates sessions from the client's requests and captures them; lists saved
// sessions from their metadata alone, and replays one only when it is opened (a view, a
// deploy config's numbers, a compare). Forwards changes (throttled to at most 4 per
// second per session) and raw output.
//
// Several windows share the folder. A session belongs to the window that captures it
// (storage/ownerLock.ts): only that window writes its files. The others list it, follow
// its files read-only when they open it, never rewrite its status, and take it over
// (mark it stopped, keeping every captured byte) only once its window is gone. The folder
// is re-read every STORAGE_SCAN_MS and on every list, so sessions of other windows appear,
// change and disappear here as well. Retention (retention.ts) deletes the oldest saved
// sessions beyond the limit, never one that any window captures or another window has
// open (storage/windowPresence.ts).
import { isGzipFile } from './gunzipInput';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type {
  AttachParams,
  ImportParams,
  LaunchParams,
  ScrapeParams,
  SessionInfo,
  SessionSourceKind,
  StorageProblem,
  TailParams,
} from '../protocol';
import type { RetentionLimits } from './retention';
import { DEFAULT_RETENTION, isCapturing, sessionsToDelete } from './retention';
import { Session } from './session';
import { SessionEntry } from './sessionEntry';
import { SessionFiles } from './sessionFiles';
import type { SessionMeta } from './sessionFiles';
import { SessionFollower } from './sessionFollower';
import type { CaptureSource } from './source';
import { HEARTBEAT_MS, OwnerLock, readLockState, type LockState } from './storage/ownerLock';
import type { StoredChunkReader } from './storage/storedChunks';
import { sessionsOpenElsewhere, WindowPresence } from './storage/windowPresence';
import { Throttle } from './throttle';
import { withTitle } from './sessionTitle';
import { baseName } from '../core/baseName';

export const NOTIFY_INTERVAL_MS = 250;
/** How often the storage folder is re-read for other windows' sessions and orphaned captures. */
export const STORAGE_SCAN_MS = 1000;

export interface RegistryEvents {
  sessionChanged(info: SessionInfo): void;
  rawOutput(sessionId: string, stream: 'stdout' | 'stderr' | 'system', text: string): void;
  /** A stored file could not be used as it is (reported once per file content). */
  storageProblem?(problem: StorageProblem): void;
}

/** Builds the capture sources of each kind; injected so the registry stays testable. */
export interface SourceFactories {
  /** The launched process, with the scrape of `params.metricsUrl` while it runs. */
  launch(params: LaunchParams, session: Session): CaptureSource;
  tail(params: TailParams): CaptureSource;
  scrape(params: ScrapeParams, session: Session): CaptureSource;
  importFile(params: ImportParams, session: Session): CaptureSource;
  attach(params: AttachParams, session: Session): CaptureSource[];
}

export interface RegistryOptions {
  /** Re-read the storage folder this often (default STORAGE_SCAN_MS); 0: only on list and at load. */
  readonly scanIntervalMs?: number;
}

/** The files of an import, each once: a file read twice would count its requests twice. */
function checkImportFiles(params: ImportParams): void {
  const earlier: unknown = params.earlier;
  if (earlier === undefined) return;
  if (!Array.isArray(earlier) || !earlier.every((f): f is string => typeof f === 'string' && f !== ''))
    throw new Error('import: the earlier files must be a list of paths');
  const files = [...earlier, params.path].map((f) => path.resolve(f));
  const twice = files.find((f, i) => files.indexOf(f) !== i);
  if (twice !== undefined) throw new Error(`import: ${twice} is given twice; each file is read once`);
}

function interruptedMessage(pid: number | null): string {
  const who =
    pid === null ? 'the language server that captured it' : `the language server that captured it (pid ${pid})`;
  return `capture was interrupted: ${who} ended; everything captured before is kept`;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export class SessionRegistry {
  private readonly entries = new Map<string, SessionEntry>();
  /** Folders whose session.json was refused, with the stamp it was refused at. */
  private readonly refused = new Map<string, string | null>();
  private readonly problemList: StorageProblem[] = [];
  private retention: RetentionLimits = DEFAULT_RETENTION;
  private readonly removedListeners: ((sessionIds: string[]) => void)[] = [];
  private readonly presence: WindowPresence;
  private scanTimer: NodeJS.Timeout | null = null;
  private heartbeatTimer: NodeJS.Timeout | null = null;
  private disposed = false;

  constructor(
    private readonly storageDir: string,
    private readonly factories: SourceFactories,
    private readonly events: RegistryEvents,
    private readonly options: RegistryOptions = {},
  ) {
    this.presence = new WindowPresence(storageDir);
  }

  /**
   * Lists the saved sessions from their metadata (nothing is replayed), takes over those
   * whose capturing window is gone, applies retention, and starts watching the folder.
   */
  loadSaved(): SessionInfo[] {
    this.scan(false);
    this.enforceRetention();
    this.startTimers();
    return this.list();
  }

  /** Re-reads the storage folder now (other windows' new, changed and deleted sessions). */
  rescan(): void {
    this.scan(true);
  }

  /** New limits (from the client's settings); applies them at once. Returns the ids of the sessions deleted. */
  setRetention(limits: RetentionLimits): string[] {
    this.retention = limits;
    return this.enforceRetention();
  }

  get retentionLimits(): RetentionLimits {
    return this.retention;
  }

  /** `listener` is called with the ids of the sessions retention deleted (here) or another window deleted. */
  onSessionsRemoved(listener: (sessionIds: string[]) => void): void {
    this.removedListeners.push(listener);
  }

  /** Stored files found unusable since start. */
  problems(): StorageProblem[] {
    return [...this.problemList];
  }

  /** Deletes the saved sessions beyond the limit (oldest first; never one captured anywhere or open in another window). */
  enforceRetention(): string[] {
    const elsewhere = sessionsOpenElsewhere(this.storageDir);
    const keep = (id: string): boolean => elsewhere.has(id) || this.entries.get(id)?.foreignOwner != null;
    const doomed = sessionsToDelete(this.list(), this.retention.maxSessions, keep);
    const removed = doomed.filter((id) => this.removeSession(id));
    this.announceRemoved(removed);
    return removed;
  }

  private removeSession(id: string): boolean {
    const entry = this.entries.get(id);
    if (entry === undefined || entry.lock !== null || isCapturing(entry.info())) return false;
    // A last look right before deleting: another window may have begun to capture or open it.
    if (readLockState(entry.files.dir).kind === 'held' || sessionsOpenElsewhere(this.storageDir).has(id)) return false;
    void entry.dispose();
    this.entries.delete(id);
    entry.files.remove();
    this.updatePresence();
    return true;
  }

  private announceRemoved(sessionIds: string[]): void {
    if (sessionIds.length === 0) return;
    for (const listener of this.removedListeners) listener(sessionIds);
  }

  list(): SessionInfo[] {
    return [...this.entries.values()].map((e) => e.info()).sort((a, b) => b.startedAt - a.startedAt);
  }

  /** The session's info (metadata only when it is not loaded). */
  info(id: string): SessionInfo | undefined {
    return this.entries.get(id)?.info();
  }

  /** The session, if it is loaded (captured here or opened). */
  get(id: string): Session | undefined {
    return this.entries.get(id)?.session ?? undefined;
  }

  /** A loaded session; throws for an unknown one. Requests use open(). */
  require(id: string): Session {
    const s = this.get(id);
    if (s === undefined)
      throw new Error(this.entries.has(id) ? `session '${id}' is not open` : `no session with id '${id}'`);
    return s;
  }

  private entry(id: string): SessionEntry {
    if (!this.entries.has(id)) this.scan(true);
    const entry = this.entries.get(id);
    if (entry === undefined) throw new Error(`no session with id '${id}'`);
    return entry;
  }

  /** The session's folder (session.json and its captured bytes), read as a saved session folder is. */
  folderOf(id: string): string {
    return this.entry(id).files.dir;
  }

  /**
   * The session with its requests in memory: replays its stored bytes the first time
   * (asynchronously, in blocks), then, if another window is capturing it, follows its files.
   */
  open(id: string): Promise<Session> {
    let entry: SessionEntry;
    try {
      entry = this.entry(id);
    } catch (err) {
      return Promise.reject(err);
    }
    if (entry.session !== null) return Promise.resolve(entry.session);
    if (entry.opening !== null) return entry.opening;
    if (entry.openFailure !== null && entry.openFailure.stamp === entry.files.metaStamp())
      return Promise.reject(new Error(entry.openFailure.message));
    const opening = this.load(entry);
    entry.opening = opening;
    this.updatePresence();
    const done = (): void => {
      if (entry.opening === opening) entry.opening = null;
      this.updatePresence();
    };
    opening.then(done, (err: unknown) => {
      entry.openFailure = { stamp: entry.files.metaStamp(), message: messageOf(err) };
      done();
    });
    return opening;
  }

  /** open() for a caller that cannot wait (deploy-config hints): `then` runs once it is loaded. */
  openInBackground(id: string, then: () => void): void {
    this.open(id).then(then, () => undefined);
  }

  private async load(entry: SessionEntry): Promise<Session> {
    const live = (): boolean => entry.foreignOwner !== null && isCapturing(entry.meta.info);
    const following = live();
    const session = this.newSession(entry, entry.meta);
    const reader = entry.files.chunkReader(entry.meta.info.startedAt);
    try {
      await session.replayStored(reader, !following);
    } catch (err) {
      session.dispose();
      if (!entry.files.exists()) throw new Error(`session '${entry.id}' was deleted while it was being opened`);
      throw new Error(`cannot open session '${entry.id}': ${messageOf(err)}`);
    } finally {
      this.reportReaderProblems(entry, reader);
    }
    if (this.entries.get(entry.id) !== entry || this.disposed) {
      session.dispose();
      throw new Error(`session '${entry.id}' was deleted while it was being opened`);
    }
    // The metadata may have changed while the bytes were read (the capture ended, or its window went away).
    if (session.sessionMeta !== entry.meta) session.adoptMeta(entry.meta);
    entry.session = session;
    entry.openFailure = null;
    if (following && live()) {
      entry.follower = new SessionFollower(session, reader, (err) =>
        this.report(entry.id, 'chunks.idx', `following the session failed: ${messageOf(err)}`, false),
      );
      entry.follower.start();
    } else {
      if (following) await this.finishFollowing(entry, session, reader);
      // Counted now: bring stale counts in its metadata up to date (when this window may write them).
      if (!isCapturing(entry.meta.info)) session.saveCountsNow();
    }
    this.notify(entry);
    return session;
  }

  private async finishFollowing(entry: SessionEntry, session: Session, reader: StoredChunkReader): Promise<void> {
    await session.finishStored(reader);
    this.reportReaderProblems(entry, reader);
  }

  private reportReaderProblems(entry: SessionEntry, reader: StoredChunkReader): void {
    while (reader.problems.length > 0) this.report(entry.id, 'chunks.idx', reader.problems.shift() as string, false);
  }

  private report(sessionId: string | null, file: string, message: string, skipped: boolean): void {
    const where = sessionId === null ? this.storageDir : path.join(this.storageDir, 'sessions', sessionId);
    const problem: StorageProblem = { sessionId, path: file === '' ? where : path.join(where, file), message, skipped };
    this.problemList.push(problem);
    this.events.storageProblem?.(problem);
  }

  launch(params: LaunchParams): SessionInfo {
    if (params.argv.length === 0 || (params.argv[0] ?? '') === '') throw new Error('launch: the command is empty');
    const session = this.create('launch', params.argv.join(' '), params.deployConfig ?? null, { launch: params });
    session.attachSources([this.factories.launch(params, session)]);
    return this.infoOf(session);
  }

  tail(params: TailParams): SessionInfo {
    // A gzip file is a rotated log, done growing: followed as text it would show nothing; read whole.
    if (isGzipFile(params.path))
      return this.importLog({
        path: params.path,
        ...(params.deployConfig === undefined ? {} : { deployConfig: params.deployConfig }),
      });
    const session = this.create('tail', params.path, params.deployConfig ?? null, { tail: params });
    session.attachSources([this.factories.tail(params)]);
    return this.infoOf(session);
  }

  scrape(params: ScrapeParams): SessionInfo {
    const session = this.create('scrape', params.url, null, { scrape: params });
    session.attachSources([this.factories.scrape(params, session)]);
    return this.infoOf(session);
  }

  importLog(params: ImportParams): SessionInfo {
    checkImportFiles(params);
    const session = this.create('import', params.path, params.deployConfig ?? null, { import: params });
    session.attachSources([this.factories.importFile(params, session)]);
    return this.infoOf(session);
  }

  attach(params: AttachParams): SessionInfo {
    const session = this.create('attach', `pid ${params.pid}`, null, { attach: params });
    session.attachSources(this.factories.attach(params, session));
    return this.infoOf(session);
  }

  /** A session of `kind` whose sources the caller builds from the new session (e.g. a Prometheus poller). */
  startWith(kind: SessionSourceKind, description: string, sources: (session: Session) => CaptureSource[]): SessionInfo {
    const session = this.create(kind, description, null, {});
    session.attachSources(sources(session));
    return this.infoOf(session);
  }

  private infoOf(session: Session): SessionInfo {
    return this.entries.get(session.id)?.info() ?? session.info;
  }

  /** Stops this window's capture of the session. Another window's capture is stopped in that window. */
  async stop(id: string): Promise<SessionInfo> {
    const entry = this.entry(id);
    if (entry.session?.hasSources === true) {
      await entry.session.stopSources();
    } else if (entry.readOnly && isCapturing(entry.meta.info)) {
      // Named as the user knows it (its title), not by its id or the other language server's pid.
      throw new Error(`${entry.info().title} is captured in another window: stop it there`);
    }
    return entry.info();
  }

  /** Restarts a launched session's process (a new session, so the two runs stay apart). */
  async restart(id: string): Promise<SessionInfo> {
    const entry = this.entry(id);
    const launch = (entry.session?.sessionMeta ?? entry.meta).launch;
    if (launch === undefined)
      throw new Error(`session '${id}' was not launched by Stage Lens, so it cannot be restarted`);
    await this.stop(id);
    return this.launch(launch);
  }

  matchDeployConfig(id: string, deployConfig: string | null): SessionInfo {
    const entry = this.entry(id);
    if (entry.session !== null) entry.session.setDeployConfig(deployConfig);
    else {
      // The stage roles stored were judged under the names of the config before: judged again when it is opened.
      const { stageRoles: _judged, ...info } = entry.meta.info;
      entry.save({ ...entry.meta, info: { ...info, deployConfig } });
      this.notify(entry);
    }
    return entry.info();
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    this.stopTimers();
    const entries = [...this.entries.values()];
    await Promise.all(
      entries.map(async (e) => {
        await e.follower?.stop();
      }),
    );
    await Promise.all(
      entries.map(async (e) => {
        if (e.session?.hasSources === true) await e.session.stopSources();
      }),
    );
    for (const e of entries) {
      await e.dispose();
      e.lock?.release();
      e.lock = null;
    }
    this.presence.dispose();
  }

  private create(
    kind: SessionSourceKind,
    description: string,
    deployConfig: string | null,
    params: Omit<SessionMeta, 'info'>,
  ): Session {
    const id = `${kind}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
    const ordinal = kind === 'import' ? this.importOrdinalOf(description) : undefined;
    const earlierFiles = params.import?.earlier?.length ?? 0;
    const info = {
      id,
      kind,
      description,
      startedAt: Date.now(),
      status: 'starting' as const,
      requestCount: 0,
      deployConfig,
      lastError: null,
      exit: null,
      problemCount: 0,
      ...(ordinal === undefined ? {} : { importOrdinal: ordinal }),
      ...(earlierFiles === 0 ? {} : { earlierFiles }),
    };
    const meta: SessionMeta = { ...params, info: withTitle(params, info) };
    const files = new SessionFiles(this.storageDir, id);
    mkdirSync(files.dir, { recursive: true });
    // The lock before the metadata: a window that sees a capturing session without a lock takes it over.
    const lock = OwnerLock.acquire(files.dir);
    if (lock === null) throw new Error(`cannot lock the new session folder ${files.dir}`);
    const entry = this.newEntry(files, meta, null);
    entry.lock = lock;
    entry.save(meta);
    entry.session = this.newSession(entry, meta);
    this.entries.set(id, entry);
    this.updatePresence();
    this.startTimers();
    // The new session is the newest and capturing: it is kept; an old one may have to go.
    this.enforceRetention();
    return entry.session;
  }

  /**
   * The next import of a file of this name (stored sessions of every window included) counts on
   * from the last one's ordinal, so the same log imported again is told apart by name; undefined
   * for the first.
   */
  private importOrdinalOf(file: string): number | undefined {
    const name = baseName(file);
    let last = 0;
    for (const e of this.entries.values()) {
      const info = e.meta.info;
      if (info.kind === 'import' && baseName(info.description) === name) last = Math.max(last, info.importOrdinal ?? 1);
    }
    return last === 0 ? undefined : last + 1;
  }

  private newEntry(files: SessionFiles, meta: SessionMeta, stamp: string | null): SessionEntry {
    const entry = new SessionEntry(files, meta, stamp, (err) =>
      this.report(entry.id, 'session.json', `metadata not saved: ${messageOf(err)}`, false),
    );
    entry.throttle = new Throttle(NOTIFY_INTERVAL_MS, () => {
      if (this.entries.get(entry.id) === entry) this.events.sessionChanged(entry.info());
    });
    return entry;
  }

  private newSession(entry: SessionEntry, meta: SessionMeta): Session {
    return new Session(
      meta,
      entry.files,
      {
        changed: () => {
          this.settleOwnership(entry);
          this.notify(entry);
        },
        raw: (s, stream, text) => this.events.rawOutput(s.id, stream, text),
      },
      entry,
    );
  }

  private notify(entry: SessionEntry): void {
    entry.throttle?.trigger();
  }

  /**
   * The lock follows this window's capture: released when it ends (exited, crashed, stopped,
   * or an error), so the session is nobody's (others may write its metadata, retention may
   * delete it); taken again if a source recovers (a tailed file that is back).
   */
  private settleOwnership(entry: SessionEntry): void {
    const session = entry.session;
    if (session === null) return;
    const capturing = isCapturing(session.info);
    if (entry.lock !== null && !capturing) {
      entry.lock.release();
      entry.lock = null;
    } else if (entry.lock === null && capturing && session.hasSources && entry.takingOver === null) {
      let lock: OwnerLock | null = null;
      try {
        lock = OwnerLock.acquire(entry.files.dir);
      } catch {
        // its folder is gone: nothing to own
      }
      if (lock === null) return;
      entry.lock = lock;
      entry.foreignOwner = null;
      entry.save(session.sessionMeta);
    }
  }

  private updatePresence(): void {
    if (this.disposed) return;
    this.presence.setOpen(
      [...this.entries.values()].filter((e) => e.session !== null || e.opening !== null).map((e) => e.id),
    );
  }

  // ------------------------------------------------------------ the storage folder

  private scan(announce: boolean): void {
    if (this.disposed) return;
    const ids = new Set(SessionFiles.listIds(this.storageDir));
    for (const id of ids) {
      const entry = this.entries.get(id);
      if (entry === undefined) this.discover(id, announce);
      else this.refresh(entry);
    }
    const removed: string[] = [];
    for (const [id, entry] of this.entries) {
      if (ids.has(id) || entry.lock !== null || entry.session?.hasSources === true) continue;
      // Deleted by another window's retention (or by hand).
      void entry.dispose();
      this.entries.delete(id);
      removed.push(id);
    }
    if (removed.length > 0) this.updatePresence();
    this.announceRemoved(removed);
    for (const entry of this.entries.values()) this.watchOwner(entry);
  }

  private discover(id: string, announce: boolean): void {
    const files = new SessionFiles(this.storageDir, id);
    const stamp = files.metaStamp();
    if (this.refused.has(id) && this.refused.get(id) === stamp) return;
    const checked = files.checkMeta();
    if (!checked.ok) {
      this.refused.set(id, stamp);
      this.report(
        id,
        'session.json',
        `saved session '${id}' skipped: ${checked.problem}; its folder is left as it is`,
        true,
      );
      return;
    }
    this.refused.delete(id);
    const entry = this.newEntry(files, checked.meta, stamp);
    this.entries.set(id, entry);
    if (announce) this.notify(entry);
  }

  /** Metadata another window wrote since we last read it. */
  private refresh(entry: SessionEntry): void {
    if (entry.lock !== null) return;
    const stamp = entry.files.metaStamp();
    if (stamp === null || stamp === entry.stamp) return;
    entry.stamp = stamp;
    const checked = entry.files.checkMeta();
    if (!checked.ok) {
      this.report(
        entry.id,
        'session.json',
        `session '${entry.id}': ${checked.problem}; its last good metadata is kept`,
        false,
      );
      return;
    }
    entry.meta = checked.meta;
    if (entry.session !== null) entry.session.adoptMeta(checked.meta);
    else this.notify(entry);
  }

  /** Who captures a session whose metadata says it is capturing; takes it over when that window is gone. */
  private watchOwner(entry: SessionEntry): void {
    if (entry.lock !== null || entry.takingOver !== null) return;
    if (!isCapturing(entry.meta.info)) {
      const wasForeign = entry.foreignOwner !== null;
      entry.foreignOwner = null;
      // Its capture ended in the other window: read its last bytes.
      if (entry.follower !== null) void this.endFollow(entry);
      else if (wasForeign) this.notify(entry);
      return;
    }
    let state: LockState;
    try {
      state = readLockState(entry.files.dir);
    } catch {
      return;
    }
    if (state.kind === 'held') {
      const pid = state.owner?.pid ?? null;
      if (entry.foreignOwner?.pid !== pid) {
        entry.foreignOwner = { pid };
        this.notify(entry);
      }
      return;
    }
    const takingOver = this.takeOver(entry, state);
    entry.takingOver = takingOver;
    void takingOver.finally(() => {
      if (entry.takingOver === takingOver) entry.takingOver = null;
    });
  }

  private async endFollow(entry: SessionEntry): Promise<void> {
    const follower = entry.follower;
    const session = entry.session;
    if (follower === null || session === null) return;
    entry.follower = null;
    await follower.stop();
    await this.finishFollowing(entry, session, follower.reader);
  }

  /**
   * The window that captured the session is gone (stale lock, or none): mark it stopped,
   * keeping everything captured. Without a loaded session nothing here waits, so at load
   * the statuses are settled before the list is answered.
   */
  private async takeOver(entry: SessionEntry, seen: LockState): Promise<void> {
    let lock: OwnerLock | null;
    try {
      lock = OwnerLock.acquire(entry.files.dir);
    } catch {
      return;
    }
    if (lock === null) return; // another window is taking it over
    try {
      const fresh = entry.files.checkMeta();
      if (!fresh.ok) return;
      entry.meta = fresh.meta;
      entry.foreignOwner = null;
      // Its window finished it just before it went: nothing to take over.
      if (!isCapturing(fresh.meta.info)) {
        entry.stamp = entry.files.metaStamp();
        if (entry.session !== null) entry.session.adoptMeta(fresh.meta);
        if (entry.follower !== null) await this.endFollow(entry);
        return;
      }
      entry.lock = lock;
      if (entry.follower !== null) await this.endFollow(entry);
      const lastError = interruptedMessage(seen.kind === 'stale' ? (seen.owner?.pid ?? null) : null);
      if (entry.session !== null) {
        entry.session.adoptMeta(fresh.meta);
        entry.session.setLastError(lastError);
        entry.session.setStatus('stopped', lastError);
      } else {
        entry.save({ ...fresh.meta, info: { ...fresh.meta.info, status: 'stopped', lastError } });
        this.notify(entry);
      }
    } finally {
      entry.lock = null;
      lock.release();
    }
  }

  // ------------------------------------------------------------ timers

  private startTimers(): void {
    if (this.disposed) return;
    const scanMs = this.options.scanIntervalMs ?? STORAGE_SCAN_MS;
    if (this.scanTimer === null && scanMs > 0) {
      this.scanTimer = setInterval(() => this.scan(true), scanMs);
      this.scanTimer.unref();
    }
    if (this.heartbeatTimer === null) {
      this.heartbeatTimer = setInterval(() => this.heartbeat(), HEARTBEAT_MS);
      this.heartbeatTimer.unref();
    }
  }

  private stopTimers(): void {
    if (this.scanTimer !== null) clearInterval(this.scanTimer);
    if (this.heartbeatTimer !== null) clearInterval(this.heartbeatTimer);
    this.scanTimer = null;
    this.heartbeatTimer = null;
  }

  private heartbeat(): void {
    for (const entry of this.entries.values()) {
      if (entry.lock === null || entry.lock.heartbeat()) continue;
      // The lock is not ours any more: its folder was deleted, or another window took the
      // session over (it judged this window gone). Stop capturing into files we do not own.
      entry.lock = null;
      this.events.rawOutput(
        entry.id,
        'system',
        '[stage-lens] this session was taken over by another window or deleted; capture here stopped\r\n',
      );
      void entry.session?.stopSources();
    }
    this.presence.heartbeat();
  }
}
