// "No session yet": the ways to get one, each a command run by the extension host.
import type { WebviewCommand, WebviewToHost } from '../../server/protocol';
import { button, h } from './dom';

/** A button per command of the protocol's WEBVIEW_COMMANDS (a command without one does not compile), in this order. */
const ACTIONS: { readonly [C in WebviewCommand]: { readonly label: string; readonly primary: boolean } } = {
  startDemo: { label: 'Start Demo Server', primary: true },
  launch: { label: 'Launch Server…', primary: false },
  attachLog: { label: 'Attach to Log File…', primary: false },
  attachMetrics: { label: 'Attach to Metrics URL…', primary: false },
  importLog: { label: 'Import Log…', primary: false },
};

export function emptyState(post: (m: WebviewToHost) => void, lead: string): HTMLElement {
  return h(
    'section',
    { className: 'empty-state', testId: 'empty-state', attrs: { 'aria-label': 'No session' } },
    h('p', { text: lead }),
    h(
      'div',
      { className: 'actions' },
      ...(Object.keys(ACTIONS) as WebviewCommand[]).map((command) =>
        button(
          ACTIONS[command].label,
          { className: ACTIONS[command].primary ? '' : 'secondary', testId: `run-${command}` },
          () => post({ type: 'runCommand', command }),
        ),
      ),
    ),
  );
}
