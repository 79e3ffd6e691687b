// The run summaries the server printed (runSummaryModel.ts) as a collapsible section, for the
// side panel (open: it may be all a log has) and Latency Details (above the tabs, closed unless
// the session has no request): the latest in full, the earlier ones each a closed section below.
// Every log-derived string goes in as text (h, setText), never as markup.
import { h, setChildren, setText } from './dom';
import type { RunSummaryPart, RunSummaryRow, RunSummaryView } from './runSummaryModel';

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
  private readonly table = summaryTable(this.body, 'run-summary-table');
  private readonly earlier = h('div', { className: 'run-summary-earlier-list', testId: 'run-summary-earlier-list' });
  private shownKey: string | null = null;
  private earlierKey: string | null = null;

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
      this.earlier,
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
      this.earlierKey = null;
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
    if (view.key !== this.shownKey) {
      this.shownKey = view.key;
      setChildren(this.body, rowsOf(view.rows, 'run-summary-row'));
    }
    // Rebuilt only when they change: a section the user opened stays open while the log grows.
    const earlierKey = view.earlier.map((e) => e.key).join('|');
    if (earlierKey === this.earlierKey) return;
    this.earlierKey = earlierKey;
    this.earlier.hidden = view.earlier.length === 0;
    setChildren(
      this.earlier,
      view.earlier.map((e) =>
        h(
          'details',
          { className: 'run-summary-earlier', testId: 'run-summary-earlier' },
          h('summary', { testId: 'run-summary-earlier-heading', text: e.heading }),
          ...earlierBody(e),
        ),
      ),
    );
  }
}

function earlierBody(part: RunSummaryPart): HTMLElement[] {
  const out: HTMLElement[] = [];
  if (part.cutOff !== null) out.push(h('p', { className: 'notice-banner', role: 'status', text: part.cutOff }));
  if (part.rows.length === 0) {
    out.push(h('p', { className: 'muted', text: 'No number was read from it.' }));
    return out;
  }
  const body = h('tbody', {}, ...rowsOf(part.rows, 'run-summary-earlier-row'));
  out.push(h('div', { className: 'run-summary-wrap' }, summaryTable(body, 'run-summary-earlier-table')));
  return out;
}

function summaryTable(body: HTMLTableSectionElement, testId: string): HTMLTableElement {
  return h(
    'table',
    { className: 'run-summary-table', testId },
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
    body,
  );
}

/** The rows, each `stages.<n>` entry under a row naming its stage (or its list position). */
function rowsOf(rows: readonly RunSummaryRow[], testId: string): HTMLTableRowElement[] {
  const out: HTMLTableRowElement[] = [];
  for (const r of rows) {
    if (r.stageHeading !== null)
      out.push(
        h(
          'tr',
          { className: 'run-summary-stage', testId: 'run-summary-stage' },
          h('th', { text: r.stageHeading, attrs: { scope: 'rowgroup', colspan: '2' } }),
        ),
      );
    out.push(
      h(
        'tr',
        { testId, title: r.title },
        h('th', { attrs: { scope: 'row' } }, breakableName(r.field)),
        h('td', { className: 'num', text: r.value, dataset: { state: r.state } }),
      ),
    );
  }
  return out;
}

/**
 * A dotted, snake_case name with a line-break opportunity after each `.` and `_`: in a narrow
 * side bar it wraps between its words (`stages.0.avg_time_per_` / `request_ms`), not inside one.
 */
function breakableName(name: string): (string | HTMLElement)[] {
  return name.split(/(?<=[._])/).flatMap((part, i) => (i === 0 ? [part] : [h('wbr', {}), part]));
}
