// All sessions of one language-server process: creates them from the client's
// requests, reopens the saved ones from the storage folder at start, and forwards
// their changes (throttled to at most 4 per second per session) and raw output. Keeps
// the storage folder within the retention limit (retention.ts): the oldest saved sessions
// beyond it are deleted, never one that is still capturing.
import { randomBytes } from 'node:crypto';
import type { AttachParams, ImportParams, LaunchParams, ScrapeParams, SessionInfo, SessionSourceKind, TailParams } from '../protocol';
import type { RetentionLimits } from './retention';
import { DEFAULT_RETENTION, isCapturing, sessionsToDelete } from './retention';
import { Session } from './session';
import { SessionFiles } from './sessionFiles';
import type { SessionMeta } from './sessionFiles';
import type { CaptureSource } from './source';
import { Throttle } from './throttle';

export const NOTIFY_INTERVAL_MS = 250;

export interface RegistryEvents {
  sessionChanged(info: SessionInfo): void;
  rawOutput(sessionId: string, stream: 'stdout' | 'stderr' | 'system', text: string): void;
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

export class SessionRegistry {
  private readonly sessions = new Map<string, Session>();
  private readonly throttles = new Map<string, Throttle>();
  private retention: RetentionLimits = DEFAULT_RETENTION;
  private readonly removedListeners: ((sessionIds: string[]) => void)[] = [];

  constructor(
    private readonly storageDir: string,
    private readonly factories: SourceFactories,
    private readonly events: RegistryEvents,
  ) {}

  /** Reopens every saved session (replaying its stored bytes). Sessions that were capturing when the process died are marked stopped. */
  loadSaved(): SessionInfo[] {
    const saved: { files: SessionFiles; meta: SessionMeta }[] = [];
    for (const id of SessionFiles.listIds(this.storageDir)) {
      if (this.sessions.has(id)) continue;
      const files = new SessionFiles(this.storageDir, id);
      const meta = files.readMeta();
      if (meta !== null) saved.push({ files, meta });
    }
    // Retention first, so that sessions about to be deleted are not replayed. A saved session
    // that was capturing when the process died is not capturing any more.
    const candidates = [
      ...this.list(),
      ...saved.map(({ meta }) => ({ ...meta.info, status: isCapturing(meta.info) ? ('stopped' as const) : meta.info.status })),
    ];
    const doomed = new Set(sessionsToDelete(candidates, this.retention.maxSessions));
    const removed: string[] = [];
    for (const { files, meta } of saved) {
      if (doomed.has(meta.info.id)) {
        files.remove();
        removed.push(meta.info.id);
        continue;
      }
      const session = this.wrap(meta, files);
      session.replayFromDisk();
      if (meta.info.status === 'running' || meta.info.status === 'starting') {
        session.setStatus('stopped', 'capture was interrupted (the language server restarted); everything captured before is kept');
      }
    }
    for (const id of doomed) if (this.sessions.has(id) && this.removeSession(id)) removed.push(id);
    this.announceRemoved(removed);
    return this.list();
  }

  /** New limits (from the client's settings); applies them at once. Returns the ids of the sessions deleted. */
  setRetention(limits: RetentionLimits): string[] {
    this.retention = limits;
    return this.enforceRetention();
  }

  get retentionLimits(): RetentionLimits {
    return this.retention;
  }

  /** `listener` is called with the ids of the sessions retention deleted. */
  onSessionsRemoved(listener: (sessionIds: string[]) => void): void {
    this.removedListeners.push(listener);
  }

  /** Deletes the saved sessions beyond the limit (oldest first; never one still capturing). */
  enforceRetention(): string[] {
    const removed = sessionsToDelete(this.list(), this.retention.maxSessions).filter((id) => this.removeSession(id));
    this.announceRemoved(removed);
    return removed;
  }

  private removeSession(id: string): boolean {
    const session = this.sessions.get(id);
    if (session === undefined || isCapturing(session.info)) return false;
    session.dispose();
    this.throttles.get(id)?.dispose();
    this.throttles.delete(id);
    this.sessions.delete(id);
    session.files.remove();
    return true;
  }

  private announceRemoved(sessionIds: string[]): void {
    if (sessionIds.length === 0) return;
    for (const listener of this.removedListeners) listener(sessionIds);
  }

  list(): SessionInfo[] {
    return [...this.sessions.values()].map((s) => s.info).sort((a, b) => b.startedAt - a.startedAt);
  }

  get(id: string): Session | undefined {
    return this.sessions.get(id);
  }

  require(id: string): Session {
    const s = this.sessions.get(id);
    if (s === undefined) throw new Error(`no session with id '${id}'`);
    return s;
  }

  launch(params: LaunchParams): SessionInfo {
    if (params.argv.length === 0 || (params.argv[0] ?? '') === '') throw new Error('launch: the command is empty');
    const session = this.create('launch', params.argv.join(' '), params.deployConfig ?? null, { launch: params });
    session.attachSources([this.factories.launch(params, session)]);
    return session.info;
  }

  tail(params: TailParams): SessionInfo {
    const session = this.create('tail', params.path, params.deployConfig ?? null, { tail: params });
    session.attachSources([this.factories.tail(params)]);
    return session.info;
  }

  scrape(params: ScrapeParams): SessionInfo {
    const session = this.create('scrape', params.url, null, { scrape: params });
    session.attachSources([this.factories.scrape(params, session)]);
    return session.info;
  }

  importLog(params: ImportParams): SessionInfo {
    const session = this.create('import', params.path, params.deployConfig ?? null, { import: params });
    session.attachSources([this.factories.importFile(params, session)]);
    return session.info;
  }

  attach(params: AttachParams): SessionInfo {
    const session = this.create('attach', `pid ${params.pid}`, null, { attach: params });
    session.attachSources(this.factories.attach(params, session));
    return session.info;
  }

  /** A session of `kind` whose sources the caller builds from the new session (e.g. a Prometheus poller). */
  startWith(kind: SessionSourceKind, description: string, sources: (session: Session) => CaptureSource[]): SessionInfo {
    const session = this.create(kind, description, null, {});
    session.attachSources(sources(session));
    return session.info;
  }

  async stop(id: string): Promise<SessionInfo> {
    const session = this.require(id);
    await session.stopSources();
    return session.info;
  }

  /** Restarts a launched session's process (a new session, so the two runs stay apart). */
  async restart(id: string): Promise<SessionInfo> {
    const session = this.require(id);
    const launch = session.sessionMeta.launch;
    if (launch === undefined) throw new Error(`session '${id}' was not launched by Stage Lens, so it cannot be restarted`);
    await session.stopSources();
    return this.launch(launch);
  }

  matchDeployConfig(id: string, deployConfig: string | null): SessionInfo {
    const session = this.require(id);
    session.setDeployConfig(deployConfig);
    return session.info;
  }

  async dispose(): Promise<void> {
    for (const t of this.throttles.values()) t.dispose();
    await Promise.all([...this.sessions.values()].map(async (s) => {
      await s.stopSources();
      s.dispose();
    }));
  }

  private create(kind: SessionSourceKind, description: string, deployConfig: string | null, params: Omit<SessionMeta, 'info'>): Session {
    const id = `${kind}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
    const meta: SessionMeta = {
      ...params,
      info: { id, kind, description, startedAt: Date.now(), status: 'starting', requestCount: 0, deployConfig, lastError: null, exit: null, problemCount: 0 },
    };
    const files = new SessionFiles(this.storageDir, id);
    files.writeMeta(meta);
    const session = this.wrap(meta, files);
    // The new session is the newest and capturing: it is kept; an old one may have to go.
    this.enforceRetention();
    return session;
  }

  private wrap(meta: SessionMeta, files: SessionFiles): Session {
    const throttle = new Throttle(NOTIFY_INTERVAL_MS, () => {
      const s = this.sessions.get(meta.info.id);
      if (s !== undefined) this.events.sessionChanged(s.info);
    });
    this.throttles.set(meta.info.id, throttle);
    const session = new Session(meta, files, {
      changed: () => throttle.trigger(),
      raw: (s, stream, text) => this.events.rawOutput(s.id, stream, text),
    });
    this.sessions.set(meta.info.id, session);
    return session;
  }
}
