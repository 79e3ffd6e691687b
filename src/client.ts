// Starts the language server (dist/server.js over IPC) when Stage Lens is first used (a
// command, a view, a deploy YAML; not at activation), keeps a typed view of the sessions,
// and re-opens them after a server restart: the server replays its storage folder, so
// nothing captured is lost when it is killed. The LanguageClient is created at once, so
// notification handlers can be registered before the server runs.
import * as vscode from 'vscode';
import { showWarning } from './notify';
import { LanguageClient, State, TransportKind } from 'vscode-languageclient/node';
import type { LanguageClientOptions, ServerOptions } from 'vscode-languageclient/node';
import type {
  ClientNotificationMethod,
  ClientNotifications,
  RequestParams,
  RequestResult,
  ServerRequestMethod,
  SessionInfo,
  SummaryResult,
} from '../server/protocol';
import { retentionSettings } from './settings';
import { quietWhileStopping, type StoppableClient } from './shutdown';
import type { LatencyDataSource } from './views/dataSource';
import { stageRolesOfSession } from '../server/shared';

/** Port of the language server's inspector in a debug session (.vscode/launch.json attaches to it). */
export const SERVER_INSPECT_PORT = 6009;

export class StageLensClient implements LatencyDataSource, StoppableClient, vscode.Disposable {
  private readonly client: LanguageClient;
  private starting: Promise<void> | null = null;
  private stopping: Promise<void> | null = null;
  private started = false;
  private readonly sessions = new Map<string, SessionInfo>();
  private current: string | null = null;
  private readonly changeEmitter = new vscode.EventEmitter<SessionInfo | null>();
  private readonly sessionsEmitter = new vscode.EventEmitter<SessionInfo>();
  private readonly listEmitter = new vscode.EventEmitter<void>();
  private readonly disposables: vscode.Disposable[] = [];
  /** Bumped on every update of a session: a summary is current for one revision. */
  private readonly revisions = new Map<string, number>();
  private readonly summaries = new Map<string, { revision: number; result: Promise<SummaryResult> }>();
  readonly onDidChangeSession = this.changeEmitter.event;
  /** Any session changed (not only the current one). */
  readonly onDidUpdateSession = this.sessionsEmitter.event;
  /** A session was added, changed or removed. */
  readonly onDidChangeSessions = this.listEmitter.event;

  constructor(
    context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
  ) {
    const serverModule = context.asAbsolutePath('dist/server.js');
    const storageDir = context.globalStorageUri.fsPath;
    const serverOptions: ServerOptions = {
      run: { module: serverModule, transport: TransportKind.ipc },
      // When the extension runs under the debugger (F5): the server opens an inspector for the
      // "Attach to Language Server" configuration of .vscode/launch.json.
      debug: {
        module: serverModule,
        transport: TransportKind.ipc,
        options: { execArgv: ['--nolazy', `--inspect=${SERVER_INSPECT_PORT}`] },
      },
    };
    const clientOptions: LanguageClientOptions = {
      documentSelector: [
        { scheme: 'file', language: 'yaml' },
        { scheme: 'untitled', language: 'yaml' },
      ],
      initializationOptions: {
        storageDir,
        retention: retentionSettings((problem) => this.log.warn(`Stage Lens: ${problem}`)),
      },
      outputChannel: this.log,
      middleware: quietWhileStopping(() => this.stopping !== null),
    };
    // The id 'stageLens' makes the client honour the setting stageLens.trace.server (off / messages / verbose).
    this.client = new LanguageClient('stageLens', 'Stage Lens', serverOptions, clientOptions);
    this.disposables.push(
      this.client.onNotification(
        'stageLens/sessionChanged' satisfies ClientNotificationMethod,
        (p: ClientNotifications['stageLens/sessionChanged']) => this.update(p.session),
      ),
      this.client.onNotification(
        'stageLens/sessionsRemoved' satisfies ClientNotificationMethod,
        (p: ClientNotifications['stageLens/sessionsRemoved']) => this.removed(p.sessionIds),
      ),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (this.started && e.affectsConfiguration('stageLens.retention'))
          void this.request(
            'stageLens/setRetention',
            retentionSettings((problem) => void showWarning(`Stage Lens: ${problem}`)),
          ).catch((err: unknown) => this.log.warn(`Stage Lens: retention settings not applied: ${String(err)}`));
      }),
      this.client.onDidChangeState(async (e) => {
        // Running again after a restart: the server has replayed its storage; refresh our view.
        if (e.newState === State.Running && this.started) await this.listSessions();
      }),
    );
  }

  /** Whether the language server was asked to start (it is never started just by activation). */
  get isStarted(): boolean {
    return this.starting !== null;
  }

  /** Starts the language server once; later calls return the same promise (a failed start is tried again by the next call). */
  start(): Promise<void> {
    this.starting ??= (async () => {
      await this.client.start();
      this.started = true;
      this.log.info('language server started');
      await this.listSessions();
    })().catch((err: unknown) => {
      if (!this.started) this.starting = null;
      throw err;
    });
    return this.starting;
  }

  /** Handlers may be registered before the server runs. */
  onNotification<M extends ClientNotificationMethod>(
    method: M,
    handler: (payload: ClientNotifications[M]) => void,
  ): vscode.Disposable {
    return this.client.onNotification(method, handler);
  }

  async request<M extends ServerRequestMethod>(method: M, params: RequestParams<M>): Promise<RequestResult<M>> {
    await this.start();
    const result = (await this.client.sendRequest(method, params)) as RequestResult<M>;
    if (isSessionInfo(result)) this.update(result);
    return result;
  }

  async refreshSessions(): Promise<SessionInfo[]> {
    await this.start();
    return this.listSessions();
  }

  private async listSessions(): Promise<SessionInfo[]> {
    const list = (await this.client.sendRequest(
      'stageLens/listSessions' satisfies ServerRequestMethod,
      {},
    )) as SessionInfo[];
    for (const s of list) this.update(s);
    if (this.current === null && list.length > 0) this.setCurrent(list[0]?.id ?? null);
    return list;
  }

  allSessions(): SessionInfo[] {
    return [...this.sessions.values()].sort((a, b) => b.startedAt - a.startedAt);
  }

  currentSession(): SessionInfo | null {
    return this.current === null ? null : (this.sessions.get(this.current) ?? null);
  }

  setCurrent(id: string | null): void {
    this.current = id;
    this.changeEmitter.fire(this.currentSession());
  }

  summary(session: SessionInfo): Promise<SummaryResult> {
    const revision = this.revisions.get(session.id) ?? 0;
    const memo = this.summaries.get(session.id);
    if (memo !== undefined && memo.revision === revision) return memo.result;
    const result = this.request('stageLens/summary', { sessionId: session.id });
    this.summaries.set(session.id, { revision, result });
    // A failed request is not remembered: the next view asks again.
    result.catch(() => {
      if (this.summaries.get(session.id)?.result === result) this.summaries.delete(session.id);
    });
    return result;
  }

  stageNames(session: SessionInfo): Readonly<Record<string, string>> {
    return stageRolesOfSession(session);
  }

  /** Sessions deleted by retention: forget them; the newest left becomes current if the current one went. */
  private removed(sessionIds: readonly string[]): void {
    for (const id of sessionIds) {
      this.sessions.delete(id);
      this.revisions.delete(id);
      this.summaries.delete(id);
    }
    this.listEmitter.fire();
    if (this.current !== null && sessionIds.includes(this.current)) this.setCurrent(this.allSessions()[0]?.id ?? null);
  }

  private update(info: SessionInfo): void {
    this.sessions.set(info.id, info);
    this.revisions.set(info.id, (this.revisions.get(info.id) ?? 0) + 1);
    this.sessionsEmitter.fire(info);
    this.listEmitter.fire();
    if (this.current === info.id) this.changeEmitter.fire(info);
  }

  /** Stops the language server once; resolves when it has stopped or given up (a server that hangs is ended by its IPC pipe closing). */
  stop(): Promise<void> {
    this.stopping ??= (this.started ? this.client.stop() : Promise.resolve()).catch((err: unknown) =>
      this.log.warn(`language server did not stop cleanly: ${err instanceof Error ? err.message : String(err)}`),
    );
    return this.stopping;
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
    this.changeEmitter.dispose();
    this.sessionsEmitter.dispose();
    this.listEmitter.dispose();
    void this.stop();
  }
}

function isSessionInfo(value: unknown): value is SessionInfo {
  return (
    typeof value === 'object' &&
    value !== null &&
    'id' in value &&
    'kind' in value &&
    'startedAt' in value &&
    'status' in value
  );
}
