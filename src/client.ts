// Starts the language server (dist/server.js over IPC), keeps a typed view of the
// sessions, and re-opens them after a server restart: the server replays its storage
// folder, so nothing captured is lost when it is killed.
import * as vscode from 'vscode';
import { LanguageClient, TransportKind } from 'vscode-languageclient/node';
import type { LanguageClientOptions, ServerOptions } from 'vscode-languageclient/node';
import type { ClientNotificationMethod, ClientNotifications, RequestParams, RequestResult, ServerRequestMethod, SessionInfo, SummaryResult } from '../server/protocol';
import { retentionSettings } from './settings';
import type { LatencyDataSource } from './views/dataSource';
import { stageRoleNames } from './stageRoles';

export class StageLensClient implements LatencyDataSource, vscode.Disposable {
  private client: LanguageClient | null = null;
  private readonly sessions = new Map<string, SessionInfo>();
  private current: string | null = null;
  private readonly changeEmitter = new vscode.EventEmitter<SessionInfo | null>();
  private readonly sessionsEmitter = new vscode.EventEmitter<SessionInfo>();
  private readonly disposables: vscode.Disposable[] = [];
  /** Bumped on every update of a session: a summary is current for one revision. */
  private readonly revisions = new Map<string, number>();
  private readonly summaries = new Map<string, { revision: number; result: Promise<SummaryResult> }>();
  readonly onDidChangeSession = this.changeEmitter.event;
  /** Any session changed (not only the current one). */
  readonly onDidUpdateSession = this.sessionsEmitter.event;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  async start(): Promise<void> {
    const serverModule = this.context.asAbsolutePath('dist/server.js');
    const storageDir = this.context.globalStorageUri.fsPath;
    const serverOptions: ServerOptions = {
      run: { module: serverModule, transport: TransportKind.ipc },
      debug: { module: serverModule, transport: TransportKind.ipc },
    };
    const clientOptions: LanguageClientOptions = {
      documentSelector: [
        { scheme: 'file', language: 'yaml' },
        { scheme: 'untitled', language: 'yaml' },
      ],
      initializationOptions: { storageDir, retention: retentionSettings((problem) => this.log.warn(`Stage Lens: ${problem}`)) },
      outputChannel: this.log,
    };
    this.client = new LanguageClient('stageLens', 'Stage Lens', serverOptions, clientOptions);
    this.disposables.push(
      this.client.onNotification('stageLens/sessionChanged' satisfies ClientNotificationMethod, (p: ClientNotifications['stageLens/sessionChanged']) => this.update(p.session)),
      this.client.onNotification('stageLens/sessionsRemoved' satisfies ClientNotificationMethod, (p: ClientNotifications['stageLens/sessionsRemoved']) => this.removed(p.sessionIds)),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('stageLens.retention')) void this.request('stageLens/setRetention', retentionSettings((problem) => void vscode.window.showWarningMessage(`Stage Lens: ${problem}`))).catch((err: unknown) => this.log.warn(`Stage Lens: retention settings not applied: ${String(err)}`));
      }),
      this.client.onDidChangeState(async (e) => {
        // 2 = Running: after a restart the server has replayed its storage; refresh our view.
        if (e.newState === 2) await this.refreshSessions();
      }),
    );
    await this.client.start();
    await this.refreshSessions();
  }

  onNotification<M extends ClientNotificationMethod>(method: M, handler: (payload: ClientNotifications[M]) => void): vscode.Disposable {
    if (this.client === null) throw new Error('Stage Lens language server is not running');
    return this.client.onNotification(method, handler);
  }

  async request<M extends ServerRequestMethod>(method: M, params: RequestParams<M>): Promise<RequestResult<M>> {
    if (this.client === null) throw new Error('Stage Lens language server is not running');
    const result = (await this.client.sendRequest(method, params)) as RequestResult<M>;
    if (isSessionInfo(result)) this.update(result);
    return result;
  }

  async refreshSessions(): Promise<SessionInfo[]> {
    if (this.client === null) return [];
    const list = (await this.client.sendRequest('stageLens/listSessions' satisfies ServerRequestMethod, {})) as SessionInfo[];
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
    return stageRoleNames(session);
  }

  /** Sessions deleted by retention: forget them; the newest left becomes current if the current one went. */
  private removed(sessionIds: readonly string[]): void {
    for (const id of sessionIds) {
      this.sessions.delete(id);
      this.revisions.delete(id);
      this.summaries.delete(id);
    }
    if (this.current !== null && sessionIds.includes(this.current)) this.setCurrent(this.allSessions()[0]?.id ?? null);
  }

  private update(info: SessionInfo): void {
    this.sessions.set(info.id, info);
    this.revisions.set(info.id, (this.revisions.get(info.id) ?? 0) + 1);
    this.sessionsEmitter.fire(info);
    if (this.current === info.id) this.changeEmitter.fire(info);
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
    this.changeEmitter.dispose();
    this.sessionsEmitter.dispose();
    void this.client?.stop();
  }
}


function isSessionInfo(value: unknown): value is SessionInfo {
  return typeof value === 'object' && value !== null && 'id' in value && 'kind' in value && 'startedAt' in value && 'status' in value;
}
