// The typed channel to the extension host: messages of server/protocol.ts and the
// webview's persisted state (getState/setState survive hiding and window reloads).
import type { HostToWebview, WebviewToHost } from '../../server/protocol';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

export interface HostChannel<S> {
  post(this: void, message: WebviewToHost): void;
  onMessage(handler: (message: HostToWebview) => void): void;
  /** The stored state, or undefined (callers sanitize it: it may come from an older version). */
  loadState(): unknown;
  saveState(state: S): void;
}

let api: VsCodeApi | null = null;

export function hostChannel<S>(): HostChannel<S> {
  // acquireVsCodeApi may be called only once per page.
  api ??= acquireVsCodeApi();
  const vscode = api;
  return {
    post: (message) => vscode.postMessage(message),
    onMessage: (handler) => {
      window.addEventListener('message', (ev: MessageEvent<unknown>) => {
        const data = ev.data;
        if (typeof data === 'object' && data !== null && typeof (data as { type?: unknown }).type === 'string')
          handler(data as HostToWebview);
      });
    },
    loadState: () => vscode.getState() ?? undefined,
    saveState: (state) => vscode.setState(state),
  };
}
