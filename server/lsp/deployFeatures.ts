// Deploy-YAML features of the language server: diagnostics (pushed, debounced), hover,
// quick fixes, inlay hints with measured numbers and code lenses, for YAML documents
// recognised as vLLM-Omni deploy configs. Everything is registered on a connection the
// caller owns, so the server entry can add its own requests beside these.
import {
  CodeActionKind,
  type CodeAction,
  type CodeLens,
  type Connection,
  type InitializeParams,
  type InlayHint,
  type ServerCapabilities,
  type TextDocuments,
} from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { deployHover, liveHints, stageAnchors } from '../core/deploy';
import type { BaseFileReader } from './baseFiles';
import { DeployDocuments } from './deployDocuments';
import { uriToPath } from './documentPaths';
import { quickFixes, rangesOverlap, toLspDiagnostic } from './lspConvert';
import { noStageNumbers, type Disposable, type StageNumbersProvider } from './stageNumbersProvider';
import { Throttle } from '../capture/throttle';
import { Debouncer } from './debouncer';

export const LAUNCH_COMMAND = 'stageLens.launchWithDeployConfig';
export const OPEN_LATENCY_COMMAND = 'stageLens.openLatencyView';

/** Argument of `stageLens.openLatencyView` from a code lens. */
export interface OpenLatencyViewArgs {
  /** Absolute path of the deploy config (as in `SessionInfo.deployConfig`). */
  readonly deployConfig: string;
  readonly stageId: number;
}

export interface DeployFeatureOptions {
  /** Measured numbers for inlay hints; none by default. Replaceable later with `setStageNumbers`. */
  readonly stageNumbers?: StageNumbersProvider;
  /** Reads files that are not open in the editor (base configs). Default: from disk, regular files of at most 1 MB (baseFiles.ts). */
  readonly readFile?: BaseFileReader;
  /** Quiet time after an edit before diagnostics are computed (default 200 ms). Also settable
   *  by the client as `initializationOptions.deployDiagnosticsDelayMs`. */
  readonly diagnosticsDelayMs?: number;
  /** Least time between two inlay-hint refreshes while numbers change (default 500 ms). */
  readonly inlayRefreshIntervalMs?: number;
}

export interface DeployFeatures extends Disposable {
  /** The capabilities to merge into the server's `initialize` result. */
  readonly capabilities: ServerCapabilities;
  /** Call from `onInitialize` with the client's parameters. */
  initialize(params: InitializeParams): void;
  /** Plug in (or replace) the source of measured numbers. */
  setStageNumbers(provider: StageNumbersProvider): void;
  /** The stage ids of the deploy config open at `filePath`, unsaved edits included; undefined when it is not open. */
  openStageIds(filePath: string): Promise<number[] | null> | undefined;
}

export function registerDeployFeatures(
  connection: Connection,
  documents: TextDocuments<TextDocument>,
  options: DeployFeatureOptions = {},
): DeployFeatures {
  const deployDocuments = new DeployDocuments(documents, options.readFile);
  const debouncer = new Debouncer<string>();
  let diagnosticsDelayMs = options.diagnosticsDelayMs ?? 200;
  let canRefreshInlays = false;
  let numbers: StageNumbersProvider = noStageNumbers;
  let numbersSubscription: Disposable | undefined;
  const published = new Set<string>();
  /** The newest version published per document: an answer that finished later for an older one is dropped. */
  const publishedVersions = new Map<string, number>();

  const refreshInlays = new Throttle(options.inlayRefreshIntervalMs ?? 500, () => {
    if (canRefreshInlays) void connection.languages.inlayHint.refresh().catch(() => undefined);
  });

  function setStageNumbers(provider: StageNumbersProvider): void {
    numbersSubscription?.dispose();
    numbers = provider;
    numbersSubscription = provider.onDidChange(() => refreshInlays.trigger());
    refreshInlays.trigger();
  }
  setStageNumbers(options.stageNumbers ?? noStageNumbers);

  async function publish(document: TextDocument): Promise<void> {
    const isDeploy = await deployDocuments.isDeploy(document);
    // Other YAML files get nothing from us, unless they once had deploy diagnostics to clear.
    if (!isDeploy && !published.has(document.uri)) return;
    if (isDeploy) published.add(document.uri);
    const found = isDeploy
      ? await deployDocuments.diagnostics(document)
      : { version: document.version, diagnostics: [] };
    if (documents.get(document.uri) !== document || found.version < (publishedVersions.get(document.uri) ?? -Infinity))
      return;
    publishedVersions.set(document.uri, found.version);
    void connection.sendDiagnostics({
      uri: document.uri,
      version: found.version,
      diagnostics: found.diagnostics.map(toLspDiagnostic),
    });
  }

  function schedule(document: TextDocument, delayMs: number): void {
    debouncer.schedule(document.uri, delayMs, () => {
      const current = documents.get(document.uri);
      if (current)
        void publish(current).catch((error: unknown) =>
          connection.console.error(`Stage Lens: deploy diagnostics failed: ${String(error)}`),
        );
    });
  }

  function changed(document: TextDocument, delayMs: number): void {
    deployDocuments.invalidate();
    schedule(document, delayMs);
    if (!document.uri.startsWith('file:')) return;
    // Overlays of this file see its unsaved text: check them again too.
    for (const dependent of deployDocuments.dependentsOf(uriToPath(document.uri))) {
      if (dependent.uri !== document.uri) schedule(dependent, delayMs);
    }
  }

  // TextDocuments fires a content change right after each open; that one is the open.
  const justOpened = new Set<string>();
  const subscriptions = [
    documents.onDidOpen((event) => {
      justOpened.add(event.document.uri);
      changed(event.document, 0);
    }),
    documents.onDidChangeContent((event) => {
      if (!justOpened.delete(event.document.uri)) changed(event.document, diagnosticsDelayMs);
    }),
    documents.onDidClose((event) => {
      debouncer.cancel(event.document.uri);
      publishedVersions.delete(event.document.uri);
      deployDocuments.closed(event.document.uri);
      if (published.delete(event.document.uri))
        void connection.sendDiagnostics({ uri: event.document.uri, diagnostics: [] });
    }),
  ];

  connection.onHover(async (params) => {
    const document = documents.get(params.textDocument.uri);
    if (!document || !(await deployDocuments.isDeploy(document))) return null;
    const analysis = await deployDocuments.analysis(document);
    const hover = analysis && deployHover(analysis, document.offsetAt(params.position));
    return hover ? { contents: { kind: 'markdown', value: hover.markdown }, range: hover.range } : null;
  });

  connection.onCodeAction(async (params) => {
    const document = documents.get(params.textDocument.uri);
    if (!document || !(await deployDocuments.isDeploy(document))) return [];
    const actions: CodeAction[] = [];
    for (const found of (await deployDocuments.diagnostics(document)).diagnostics) {
      if (rangesOverlap(found.range, params.range)) actions.push(...quickFixes(document.uri, found));
    }
    return actions;
  });

  connection.languages.inlayHint.on(async (params) => {
    const document = documents.get(params.textDocument.uri);
    if (!document || !document.uri.startsWith('file:') || !(await deployDocuments.isDeploy(document))) return [];
    const analysis = await deployDocuments.analysis(document);
    if (!analysis) return [];
    const hints: InlayHint[] = [];
    for (const hint of liveHints(analysis, numbers.numbersFor(uriToPath(document.uri)))) {
      if (!rangesOverlap({ start: hint.position, end: hint.position }, params.range)) continue;
      hints.push({ position: hint.position, label: hint.label, paddingLeft: true, tooltip: hint.tooltip });
    }
    return hints;
  });

  connection.onCodeLens(async (params) => {
    const document = documents.get(params.textDocument.uri);
    if (!document || !(await deployDocuments.isDeploy(document))) return [];
    const analysis = await deployDocuments.analysis(document);
    if (!analysis) return [];
    const top = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    const lenses: CodeLens[] = [
      { range: top, command: { title: 'Launch with this config', command: LAUNCH_COMMAND, arguments: [document.uri] } },
    ];
    const deployConfig = uriToPath(document.uri);
    for (const anchor of stageAnchors(analysis)) {
      const args: OpenLatencyViewArgs = { deployConfig, stageId: anchor.stageId };
      const title = anchor.inherited
        ? `Latency Details for stage ${anchor.stageId} (from base config)`
        : `Latency Details for stage ${anchor.stageId}`;
      lenses.push({
        range: anchor.entry.keyLocation.range,
        command: { title, command: OPEN_LATENCY_COMMAND, arguments: [args] },
      });
    }
    return lenses;
  });

  return {
    capabilities: {
      hoverProvider: true,
      codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
      codeLensProvider: { resolveProvider: false },
      inlayHintProvider: true,
    },
    initialize(params: InitializeParams): void {
      canRefreshInlays = params.capabilities?.workspace?.inlayHint?.refreshSupport === true;
      const delay = (params.initializationOptions as { deployDiagnosticsDelayMs?: unknown } | undefined)
        ?.deployDiagnosticsDelayMs;
      if (typeof delay === 'number' && delay >= 0) diagnosticsDelayMs = delay;
    },
    setStageNumbers,
    openStageIds: (filePath) => deployDocuments.openStageIds(filePath),
    dispose(): void {
      for (const subscription of subscriptions) subscription.dispose();
      numbersSubscription?.dispose();
      debouncer.dispose();
      refreshInlays.dispose();
    },
  };
}
