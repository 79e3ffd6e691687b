// Host of the Compare Sessions panel (one editor panel, re-used): asks the language server
// for the comparison, posts it to the page, and keeps what the page reports it drew (the
// extension-host test reads that back). Same shell as the other webviews: strict CSP, a
// fresh nonce per load, local resources limited to dist/webview.
import * as vscode from 'vscode';
import type {
  CompareHostToWebview,
  CompareParams,
  CompareRendered,
  CompareResult,
  CompareRunName,
  CompareWebviewToHost,
  ServerRequestMethod,
  RequestParams,
  RequestResult,
} from '../../server/protocol';
import { webviewHtml, webviewOptions } from './webviewResources';

/** The one request the panel needs (StageLensClient satisfies it). */
export interface CompareSource {
  request<M extends ServerRequestMethod>(method: M, params: RequestParams<M>): Promise<RequestResult<M>>;
}

export interface ShownComparison {
  readonly result: CompareResult;
  /** What the page drew; null when it did not report within the wait (e.g. the page failed to load). */
  readonly rendered: CompareRendered | null;
  /** Why the page could not draw it, when it said so. */
  readonly drawError?: string;
}

type DrawOutcome = { readonly rendered: CompareRendered } | { readonly drawError: string } | null;

/** How often a comparison the page has not answered is posted again (a page still loading may miss it). */
const REPOST_MS = 3_000;

function parseMessage(raw: unknown): CompareWebviewToHost | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const m = raw as { type?: unknown; rendered?: unknown };
  if (m.type === 'ready') return { type: 'ready' };
  if (m.type === 'drawFailed') return { type: 'drawFailed', message: String((m as { message?: unknown }).message) };
  if (m.type !== 'rendered' || typeof m.rendered !== 'object' || m.rendered === null) return null;
  const r = m.rendered as Record<string, unknown>;
  const texts = r['texts'];
  if (
    typeof r['rows'] !== 'number' ||
    typeof r['beyondNoise'] !== 'number' ||
    !Array.isArray(r['findings']) ||
    typeof texts !== 'object' ||
    texts === null
  )
    return null;
  const cleanTexts: Record<string, string> = {};
  for (const [k, v] of Object.entries(texts)) if (typeof v === 'string') cleanTexts[k] = v;
  return {
    type: 'rendered',
    rendered: {
      rows: r['rows'],
      beyondNoise: r['beyondNoise'],
      findings: r['findings'].filter((f): f is string => typeof f === 'string'),
      texts: cleanTexts,
    },
  };
}

export class ComparePanel implements vscode.Disposable {
  static readonly viewType = 'stageLens.comparePanel';

  private panel: vscode.WebviewPanel | undefined;
  private ready = false;
  private last: CompareHostToWebview | null = null;
  private renderWaiters: Array<(r: DrawOutcome) => void> = [];
  private disposables: vscode.Disposable[] = [];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly source: CompareSource,
    private readonly log?: (line: string) => void,
  ) {}

  /** Opens (or reveals) the panel, compares, and resolves once the page drew the result (or after `waitMs`). */
  async show(
    params: CompareParams,
    names: { baseline: CompareRunName; candidate: CompareRunName },
    waitMs = 60_000,
  ): Promise<ShownComparison> {
    this.open();
    this.post({ type: 'loading', baselineRun: names.baseline, candidateRun: names.candidate });
    let result: CompareResult;
    try {
      result = await this.source.request('stageLens/compare', params);
    } catch (err) {
      this.post({ type: 'error', message: `Cannot compare: ${err instanceof Error ? err.message : String(err)}` });
      throw err;
    }
    const message: CompareHostToWebview = { type: 'comparison', result };
    const drawn = this.nextRender(waitMs, message);
    this.post(message);
    const outcome = await drawn;
    if (outcome !== null && 'drawError' in outcome) {
      this.log?.(`the Compare page could not draw the comparison: ${outcome.drawError}`);
      return { result, rendered: null, drawError: outcome.drawError };
    }
    return { result, rendered: outcome?.rendered ?? null };
  }

  private open(): void {
    if (this.panel !== undefined) {
      this.panel.reveal(undefined, false);
      return;
    }
    const panel = vscode.window.createWebviewPanel(
      ComparePanel.viewType,
      'Stage Lens: Compare',
      { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
      {
        ...webviewOptions(this.extensionUri),
        retainContextWhenHidden: true,
        enableFindWidget: true,
      },
    );
    this.panel = panel;
    this.ready = false;
    this.disposables.push(
      panel.webview.onDidReceiveMessage((raw: unknown) => this.onMessage(raw)),
      panel.onDidDispose(() => this.forgetPanel()),
    );
    panel.webview.html = webviewHtml(panel.webview, this.extensionUri, 'compare', 'Stage Lens: Compare');
  }

  private post(message: CompareHostToWebview): void {
    // A page that is not ready yet gets the latest message when it says so.
    this.last = message;
    if (this.ready && this.panel !== undefined) void this.panel.webview.postMessage(message);
  }

  private nextRender(waitMs: number, message: CompareHostToWebview): Promise<DrawOutcome> {
    return new Promise((resolve) => {
      const repost = setInterval(() => {
        if (this.last === message) this.post(message);
      }, REPOST_MS);
      const timer = setTimeout(() => done(null), waitMs);
      const done = (r: DrawOutcome): void => {
        clearTimeout(timer);
        clearInterval(repost);
        this.renderWaiters = this.renderWaiters.filter((w) => w !== done);
        resolve(r);
      };
      this.renderWaiters.push(done);
    });
  }

  private onMessage(raw: unknown): void {
    const message = parseMessage(raw);
    if (message === null) return;
    if (message.type === 'ready') {
      this.ready = true;
      if (this.last !== null && this.panel !== undefined) void this.panel.webview.postMessage(this.last);
      return;
    }
    const outcome: DrawOutcome =
      message.type === 'rendered' ? { rendered: message.rendered } : { drawError: message.message };
    for (const w of this.renderWaiters.splice(0)) w(outcome);
  }

  private forgetPanel(): void {
    // A closed page draws nothing more: whoever waits for it hears so now.
    for (const w of this.renderWaiters.splice(0)) w(null);
    for (const d of this.disposables.splice(0)) d.dispose();
    this.panel = undefined;
    this.ready = false;
  }

  dispose(): void {
    const panel = this.panel;
    this.forgetPanel();
    panel?.dispose();
  }
}
