// The run summary the server printed (runSummaryModel.ts) as a collapsible section, for the
// side panel (open: it may be all a log has) and Latency Details (above the tabs, closed unless
// the session has no request).
// Every log-derived string goes in as text (h, setText), never as markup.
import { h, setChildren, setText } from './dom';
import type { RunSummaryView } from './runSummaryModel';

export class RunSummarySection {
  readonly el: HTMLDetailsElement;
  private readonly source = h('p', { className: 'muted run-summary-source', testId: 'run-summary-source' });
  private readonly which = h('p', { className: 'muted run-summary-which', testId: 'run-summary-which' });
  private readonly cutOff = h('p', { className: 'notice-banner', role: 'status', testId: 'run-summary-cut-off' });
  private readonly empty = h('p', {
    className: 'muted',
    testId: 'run-summary-empty',
    text: 'No number was read from it.',
  });
  private readonly body = h('tbody', {});
  private readonly table = h(
    'table',
    { className: 'run-summary-table', testId: 'run-summary-table' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', { text: 'field', attrs: { scope: 'col' } }),
        h('th', { text: 'value', attrs: { scope: 'col' } }),
      ),
    ),
    this.body,
  );
  private shownKey: string | null = null;

  constructor(open: boolean) {
    this.el = h(
      'details',
      { className: 'run-summary', testId: 'run-summary' },
      h(
        'summary',
        { testId: 'run-summary-heading' },
        h('span', { className: 'run-summary-title', text: 'Run summary' }),
        ' ',
        h('span', { className: 'muted source-note', text: 'as the server printed it' }),
      ),
      this.source,
      this.which,
      this.cutOff,
      this.empty,
      h('div', { className: 'run-summary-wrap' }, this.table),
    );
    this.el.open = open;
    this.el.hidden = true;
  }

  /** `openWhenShown`: whether the section opens as it appears (left as the user set it after). */
  update(view: RunSummaryView | null, openWhenShown?: boolean): void {
    const appears = this.el.hidden && view !== null;
    this.el.hidden = view === null;
    if (view === null) {
      this.shownKey = null;
      return;
    }
    if (appears && openWhenShown !== undefined) this.el.open = openWhenShown;
    setText(this.source, view.source);
    this.which.hidden = view.which === null;
    setText(this.which, view.which ?? '');
    this.cutOff.hidden = view.cutOff === null;
    setText(this.cutOff, view.cutOff ?? '');
    this.empty.hidden = view.rows.length > 0;
    this.table.hidden = view.rows.length === 0;
    if (view.key === this.shownKey) return;
    this.shownKey = view.key;
    setChildren(
      this.body,
      view.rows.map((r) =>
        h(
          'tr',
          { testId: 'run-summary-row', title: r.title },
          h('th', { attrs: { scope: 'row' } }, breakableName(r.field)),
          h('td', { className: 'num', text: r.value, dataset: { state: r.state } }),
        ),
      ),
    );
  }
}

/**
 * A dotted, snake_case name with a line-break opportunity after each `.` and `_`: in a narrow
 * side bar it wraps between its words (`stages.0.avg_time_per_` / `request_ms`), not inside one.
 */
function breakableName(name: string): (string | HTMLElement)[] {
  return name.split(/(?<=[._])/).flatMap((part, i) => (i === 0 ? [part] : [h('wbr', {}), part]));
}
