// A real LSP client for the deploy-feature tests: starts `dist/server.js --stdio` as a
// child process and talks to it with vscode-languageserver-protocol over its pipes.
// The server bundle is built first from server/lsp/main.ts with the options of
// scripts/build.mjs's server target (only that target, so the tests do not depend on
// other bundles building).
import { after, before } from 'node:test';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildBundles } from './buildBundles';
import {
  CodeActionRequest,
  CodeLensRequest,
  createProtocolConnection,
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
  ExitNotification,
  HoverRequest,
  InitializedNotification,
  InitializeRequest,
  InlayHintRefreshRequest,
  InlayHintRequest,
  PublishDiagnosticsNotification,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  type CodeAction,
  type CodeLens,
  type Diagnostic,
  type Hover,
  type InlayHint,
  type Position,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
  type Range,
} from 'vscode-languageserver-protocol/node';
import { pathToFileURL } from 'node:url';
import type { LiveStageNumbers } from '../../../server/core/deploy';

export const ROOT = path.resolve(__dirname, '..', '..', '..');
export const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'deploy');
const SERVER = path.join(ROOT, 'dist', 'server.js');

let built = false;

export function buildServer(): string {
  if (!built) {
    buildBundles('server');
    built = true;
  }
  return SERVER;
}

/** The CLI bundle (`dist/cli.js`), for launching the simulator as a live session. */
export function buildCli(): string {
  buildBundles('cli');
  return path.join(ROOT, 'dist', 'cli.js');
}

export function uriOf(file: string): string {
  return pathToFileURL(file).href;
}

export interface StartOptions {
  /** Serve these fixed numbers (`--test-numbers`) instead of the sessions' numbers. */
  readonly testNumbers?: Record<string, LiveStageNumbers>;
  readonly diagnosticsDelayMs?: number;
  /** Where sessions are stored (`initializationOptions.storageDir`); by default the user's state folder. */
  readonly storageDir?: string;
}

export class DeployLspClient {
  private readonly diagnosticsByUri = new Map<string, PublishDiagnosticsParams>();
  private readonly waiters: Array<() => void> = [];
  refreshRequests = 0;
  /** `stageLens/sessionChanged` notifications received. */
  sessionChanges = 0;
  /** How many times diagnostics were published, per URI. */
  readonly publishCounts = new Map<string, number>();
  private versions = new Map<string, number>();

  private constructor(
    private readonly child: ChildProcess,
    readonly connection: ProtocolConnection,
    /** The folder of the --test-numbers file, removed when the server stops; null without one. */
    private readonly numbersDir: string | null,
  ) {
    connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
      this.diagnosticsByUri.set(params.uri, params);
      this.publishCounts.set(params.uri, (this.publishCounts.get(params.uri) ?? 0) + 1);
      for (const wake of this.waiters.splice(0)) wake();
    });
    connection.onNotification('stageLens/sessionChanged', () => {
      this.sessionChanges++;
    });
    connection.onRequest(InlayHintRefreshRequest.method, () => {
      this.refreshRequests++;
      for (const wake of this.waiters.splice(0)) wake();
      return null;
    });
  }

  static async start(options: StartOptions = {}): Promise<DeployLspClient> {
    const server = buildServer();
    const args = [server, '--stdio'];
    const numbersDir = options.testNumbers ? fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-numbers-')) : null;
    if (numbersDir !== null) {
      const file = path.join(numbersDir, 'numbers.json');
      fs.writeFileSync(file, JSON.stringify(options.testNumbers));
      args.push('--test-numbers', file);
    }
    const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'] });
    if (!child.stdout || !child.stdin) {
      removeFolder(numbersDir);
      throw new Error('no pipes to the server');
    }
    const connection = createProtocolConnection(
      new StreamMessageReader(child.stdout),
      new StreamMessageWriter(child.stdin),
    );
    connection.listen();
    const client = new DeployLspClient(child, connection, numbersDir);
    await connection.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri: uriOf(FIXTURES),
      capabilities: {
        workspace: { inlayHint: { refreshSupport: true } },
        textDocument: { publishDiagnostics: { relatedInformation: true } },
      },
      initializationOptions: {
        deployDiagnosticsDelayMs: options.diagnosticsDelayMs ?? 0,
        ...(options.storageDir === undefined ? {} : { storageDir: options.storageDir }),
      },
    });
    await connection.sendNotification(InitializedNotification.type, {});
    return client;
  }

  async open(file: string, text = fs.readFileSync(file, 'utf8')): Promise<string> {
    const uri = uriOf(file);
    this.versions.set(uri, 1);
    this.diagnosticsByUri.delete(uri);
    await this.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId: 'yaml', version: 1, text },
    });
    return uri;
  }

  /** Replaces the whole text, as a new version. */
  async change(uri: string, text: string): Promise<number> {
    const version = (this.versions.get(uri) ?? 1) + 1;
    this.versions.set(uri, version);
    await this.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version },
      contentChanges: [{ text }],
    });
    return version;
  }

  /** One edit as an editor with incremental sync sends it: `range` replaced by `text`. */
  async edit(uri: string, range: Range, text: string): Promise<number> {
    const version = (this.versions.get(uri) ?? 1) + 1;
    this.versions.set(uri, version);
    await this.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri, version },
      contentChanges: [{ range, text }],
    });
    return version;
  }

  /** The diagnostics published for `uri` (for `version`, when given), waiting for them. */
  async diagnostics(uri: string, version?: number, timeoutMs = 5000): Promise<Diagnostic[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.diagnosticsByUri.get(uri);
      if (found && (version === undefined || found.version === version)) return found.diagnostics;
      if (Date.now() > deadline)
        throw new Error(`no diagnostics for ${uri}${version === undefined ? '' : ` version ${version}`}`);
      await this.wake(deadline - Date.now());
    }
  }

  async waitForRefreshes(count: number, timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.refreshRequests < count) {
      if (Date.now() > deadline) throw new Error(`only ${this.refreshRequests} inlay-hint refreshes`);
      await this.wake(deadline - Date.now());
    }
  }

  hover(uri: string, position: Position): Promise<Hover | null> {
    return this.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position });
  }

  inlayHints(
    uri: string,
    range: Range = { start: { line: 0, character: 0 }, end: { line: 100000, character: 0 } },
  ): Promise<InlayHint[] | null> {
    return this.connection.sendRequest(InlayHintRequest.type, { textDocument: { uri }, range });
  }

  codeLenses(uri: string): Promise<CodeLens[] | null> {
    return this.connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } });
  }

  codeActions(uri: string, range: Range, diagnostics: Diagnostic[]): Promise<Array<CodeAction> | null> {
    return this.connection.sendRequest(CodeActionRequest.type, {
      textDocument: { uri },
      range,
      context: { diagnostics },
    }) as Promise<CodeAction[] | null>;
  }

  request<R>(method: string, params: unknown): Promise<R> {
    return this.connection.sendRequest(method, params) as Promise<R>;
  }

  notify(method: string, params: unknown): Promise<void> {
    return this.connection.sendNotification(method, params);
  }

  /** The server's exit code or signal, once it has exited (null while it runs). */
  get exited(): { readonly code: number | null; readonly signal: NodeJS.Signals | null } | null {
    return this.child.exitCode !== null || this.child.signalCode !== null
      ? { code: this.child.exitCode, signal: this.child.signalCode }
      : null;
  }

  /** Shuts the server down, then removes what start made for it (the --test-numbers folder). */
  async stop(): Promise<void> {
    try {
      await this.connection.sendRequest(ShutdownRequest.type);
      await this.connection.sendNotification(ExitNotification.type);
      await new Promise<void>((resolve) => {
        if (this.child.exitCode !== null) resolve();
        else this.child.once('exit', () => resolve());
      });
      this.connection.dispose();
    } finally {
      removeFolder(this.numbersDir);
    }
  }

  private wake(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, Math.max(1, ms));
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}

/** Position of the `n`-th (0-based) occurrence of `needle` in `text`, plus `offset` characters. */
/** One test file's server and the folder its files and stored sessions go in. */
export interface DeployServerForFile {
  /** A new temporary folder; the server stores its sessions in its `sessions`. */
  readonly scratch: string;
  /** The server, started before the file's tests. */
  readonly client: DeployLspClient;
}

/**
 * Makes the scratch folder (its name starting with `prefix`) and starts a server with
 * `diagnosticsDelayMs: 0` before the file's tests; stops the server, then removes the folder,
 * after them.
 */
export function deployServerForFile(prefix: string): DeployServerForFile {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  let client: DeployLspClient | undefined;
  before(async () => {
    client = await DeployLspClient.start({ diagnosticsDelayMs: 0, storageDir: path.join(scratch, 'sessions') });
  });
  after(async () => {
    await client?.stop();
    fs.rmSync(scratch, { recursive: true, force: true });
  });
  return {
    scratch,
    get client(): DeployLspClient {
      if (client === undefined) throw new Error('the server starts before the tests');
      return client;
    },
  };
}

export function positionOf(text: string, needle: string, offset = 0, n = 0): Position {
  let at = -1;
  for (let i = 0; i <= n; i++) {
    at = text.indexOf(needle, at + 1);
    if (at < 0) throw new Error(`"${needle}" not found`);
  }
  const before = text.slice(0, at + offset);
  const line = before.split('\n').length - 1;
  return { line, character: before.length - before.lastIndexOf('\n') - 1 };
}

/** An inlay hint's tooltip as text (a string or markdown). */
export const hintTooltip = (h: InlayHint): string =>
  typeof h.tooltip === 'string' ? h.tooltip : (h.tooltip?.value ?? '');

/** An inlay hint's label as text (a string or its parts joined). */
export const hintLabel = (h: InlayHint): string =>
  typeof h.label === 'string' ? h.label : h.label.map((part) => part.value).join('');

function removeFolder(dir: string | null): void {
  if (dir !== null) fs.rmSync(dir, { recursive: true, force: true });
}
