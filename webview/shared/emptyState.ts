// "No session yet": the ways to get one, each a command run by the extension host.
import type { WebviewToHost } from '../../server/protocol';
import { button, h } from './dom';

type RunCommand = Extract<WebviewToHost, { type: 'runCommand' }>['command'];

const ACTIONS: readonly { readonly command: RunCommand; readonly label: string; readonly primary: boolean }[] = [
  { command: 'startDemo', label: 'Start Demo Server', primary: true },
  { command: 'launch', label: 'Launch Server…', primary: false },
  { command: 'attachLog', label: 'Attach to Log File…', primary: false },
  { command: 'attachMetrics', label: 'Attach to Metrics URL…', primary: false },
  { command: 'importLog', label: 'Import Log…', primary: false },
];

export function emptyState(post: (m: WebviewToHost) => void, lead: string): HTMLElement {
  return h(
    'section',
    { className: 'empty-state', testId: 'empty-state', attrs: { 'aria-label': 'No session' } },
    h('p', { text: lead }),
    h(
      'div',
      { className: 'actions' },
      ...ACTIONS.map((a) =>
        button(a.label, { className: a.primary ? '' : 'secondary', testId: `run-${a.command}` }, () => post({ type: 'runCommand', command: a.command })),
      ),
    ),
  );
}
