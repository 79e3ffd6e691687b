// A real Stage Lens language server (dist/server.js built from the sources, a child process
// on stdio) with a typed client over a real JSON-RPC connection, recording what it pushes:
// session changes, removals, a launched process's raw output, and the warnings it shows the
// user (window/showMessage).
import { after } from 'node:test';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildBundles } from './buildBundles';
import { waitFor } from './waitFor';
import { releaseStrayHandles } from './releaseStrayHandles';
import {
  createProtocolConnection,
  InitializeRequest,
  InitializedNotification,
  ShowMessageNotification,
  StreamMessageReader,
  StreamMessageWriter,
  type InitializeResult,
  type ShowMessageParams,
  type ProtocolConnection,
} from 'vscode-languageserver-protocol/node';
import type {
  ClientNotifications,
  RequestParams,
  RequestResult,
  ServerRequestMethod,
  SessionInfo,
} from '../../../server/protocol';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const started: ChildProcess[] = [];
let built = false;

export function buildServer(): void {
  if (built) return;
  buildBundles('server');
  buildBundles('cli');
  built = true;
}

export interface LspProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  readonly connection: ProtocolConnection;
  readonly initialized: InitializeResult;
  readonly changes: { at: number; session: SessionInfo }[];
  readonly removed: string[];
  /** Raw output per session, in order (what the editor terminal shows). */
  readonly raw: Map<string, string[]>;
  readonly warnings: string[];
  request<M extends ServerRequestMethod>(method: M, params: RequestParams<M>): Promise<RequestResult<M>>;
  list(): Promise<SessionInfo[]>;
  session(id: string): Promise<SessionInfo | undefined>;
  /** Imports a file and waits until the import has ended (the session exited): its info then. */
  importLog(file: string): Promise<SessionInfo>;
  /** Waits until the session has read at least `count` requests: its info then. */
  requestsRead(sessionId: string, count: number, timeoutMs?: number): Promise<SessionInfo>;
}

export async function startLanguageServer(
  storageDir: string,
  initializationOptions: Record<string, unknown> = {},
): Promise<LspProcess> {
  buildServer();
  const child = spawn(process.execPath, [path.join(ROOT, 'dist', 'server.js'), '--stdio'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  started.push(child);
  const connection = createProtocolConnection(
    new StreamMessageReader(child.stdout!),
    new StreamMessageWriter(child.stdin!),
  );
  const changes: LspProcess['changes'] = [];
  const removed: string[] = [];
  const raw: LspProcess['raw'] = new Map();
  const warnings: string[] = [];
  connection.onNotification('stageLens/sessionChanged', (p: ClientNotifications['stageLens/sessionChanged']) => {
    changes.push({ at: Date.now(), session: p.session });
  });
  connection.onNotification('stageLens/sessionsRemoved', (p: ClientNotifications['stageLens/sessionsRemoved']) => {
    removed.push(...p.sessionIds);
  });
  connection.onNotification('stageLens/rawOutput', (p: ClientNotifications['stageLens/rawOutput']) => {
    const list = raw.get(p.sessionId) ?? [];
    list.push(p.text);
    raw.set(p.sessionId, list);
  });
  connection.onNotification(ShowMessageNotification.method, (p: ShowMessageParams) => {
    warnings.push(p.message);
  });
  connection.listen();
  const initialized = await connection.sendRequest(InitializeRequest.type, {
    processId: process.pid,
    rootUri: null,
    capabilities: {},
    initializationOptions: { storageDir, ...initializationOptions },
  });
  await connection.sendNotification(InitializedNotification.type, {});
  const request = <M extends ServerRequestMethod>(method: M, params: RequestParams<M>): Promise<RequestResult<M>> =>
    connection.sendRequest(method, params) as Promise<RequestResult<M>>;
  const list = (): Promise<SessionInfo[]> => request('stageLens/listSessions', {});
  const session = async (id: string): Promise<SessionInfo | undefined> => (await list()).find((s) => s.id === id);
  const importLog = async (file: string): Promise<SessionInfo> => {
    const started = await request('stageLens/import', { path: file });
    return waitFor(`the import of ${file} to end`, async () => {
      const info = await session(started.id);
      return info?.status === 'exited' ? info : undefined;
    });
  };
  const requestsRead = (sessionId: string, count: number, timeoutMs?: number): Promise<SessionInfo> =>
    waitFor(
      `${count} requests`,
      async () => {
        const info = await session(sessionId);
        return info !== undefined && info.requestCount >= count ? info : undefined;
      },
      timeoutMs,
    );
  return {
    child,
    pid: child.pid as number,
    connection,
    initialized,
    changes,
    removed,
    raw,
    warnings,
    request,
    list,
    session,
    importLog,
    requestsRead,
  };
}

/**
 * Kills every language server these tests started that is still running, and lets go of their
 * pipes: a pipe some other process still held open would keep this test process from ending.
 */
export function killLanguageServers(): void {
  for (const c of started) {
    if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    c.stdin?.destroy();
    c.stdout?.destroy();
    c.unref();
  }
  releaseStrayHandles();
}

/**
 * A new storage folder (its name starting with `prefix`) for one test file's language servers:
 * after the file's tests, every server still running is killed, then the folder removed.
 */
export function storageForFile(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  after(() => {
    killLanguageServers();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}
