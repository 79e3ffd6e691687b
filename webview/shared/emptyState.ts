// "No session yet": every way to get one (startActions.ts), in groups, each a command run by the extension host.
import type { WebviewToHost } from '../../server/protocol';
import { button, h } from './dom';
import { PRIMARY_START, START_GROUPS } from './startActions';

export function emptyState(post: (m: WebviewToHost) => void, lead: string): HTMLElement {
  return h(
    'section',
    { className: 'empty-state', testId: 'empty-state', attrs: { 'aria-label': 'No session' } },
    h('p', { text: lead }),
    ...START_GROUPS.map((group) =>
      h(
        'div',
        {
          className: 'start-group',
          testId: `start-${group.id}`,
          role: 'group',
          attrs: { 'aria-label': group.heading },
        },
        h('h3', { className: 'start-heading muted', text: group.heading }),
        h(
          'div',
          { className: 'actions' },
          ...group.actions.map((action) =>
            button(
              action.label,
              {
                className: action.command === PRIMARY_START ? '' : 'secondary',
                testId: `run-${action.command}`,
                title: action.title,
              },
              () => post({ type: 'runCommand', command: action.command }),
            ),
          ),
        ),
      ),
    ),
  );
}
