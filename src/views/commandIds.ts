// The commands a webview button may run (the empty state's "Start Demo Server" etc.).
// Only these ids are ever executed on a webview's behalf (registered in src/extension.ts).
import type { WebviewToHost } from '../../server/protocol';

export type WebviewCommand = Extract<WebviewToHost, { type: 'runCommand' }>['command'];

export const WEBVIEW_COMMAND_IDS: Readonly<Record<WebviewCommand, string>> = {
  startDemo: 'stageLens.startDemo',
  launch: 'stageLens.launchServer',
  attachLog: 'stageLens.attachLogFile',
  attachMetrics: 'stageLens.attachMetrics',
  importLog: 'stageLens.importLog',
};
