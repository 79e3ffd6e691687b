// What the webview hosts need from the rest of the extension: the session being shown,
// and typed requests to the language server. Implemented by src/client.ts.
import type * as vscode from 'vscode';
import type {
  RequestParams,
  RequestResult,
  ServerRequestMethod,
  SessionInfo,
  SummaryResult,
} from '../../server/protocol';

export interface LatencyDataSource {
  /** Start the language server if it is not running yet (a view being shown is a Stage Lens action). */
  start(): Promise<void>;
  /** The session the views show: the live one, or the one the user opened. */
  currentSession(): SessionInfo | null;
  /** Fires when the current session changes or updates (already throttled to <= 4/s). */
  readonly onDidChangeSession: vscode.Event<SessionInfo | null>;
  request<M extends ServerRequestMethod>(method: M, params: RequestParams<M>): Promise<RequestResult<M>>;
  /** The session's summary, asked of the server once per session change however many views show it. */
  summary(session: SessionInfo): Promise<SummaryResult>;
  /** Stage id -> role name ("talker", "code2wav") when the session's deploy config is known. */
  stageNames(session: SessionInfo): Readonly<Record<string, string>>;
}
