// The per-stage table of the side panel. Updated in place: a live summary changes a few
// numbers, so only those text nodes, titles and bar widths are touched.
import { h, setAttr, setData, setLiveTitle, setText } from '../shared/dom';
import { formatCount } from '../shared/format';
import { cardLabel } from '../shared/labels';
import type { SummaryCell, SummaryColumn, SummaryModel, SummaryRow } from './summaryModel';

interface CellParts {
  readonly td: HTMLTableCellElement;
  readonly value: HTMLSpanElement;
  readonly fill: HTMLSpanElement;
}

interface RowParts {
  readonly tr: HTMLTableRowElement;
  readonly label: HTMLSpanElement;
  readonly role: HTMLSpanElement;
  readonly count: HTMLSpanElement;
  readonly cells: Map<string, CellParts>;
  stageId: number | null;
}

export interface SummaryTableOptions {
  readonly testId: string;
  readonly rowTestId: string;
  readonly label: string;
  /** The count beside a row's name, and its tooltip (the count formatted, e.g. "1,204"). */
  readonly count: (formatted: string, row: SummaryRow) => { readonly text: string; readonly title: string };
  /** The first column's header (default "stage"). */
  readonly rowHeader?: string;
  /** What activating a row does, for its accessible name (default: open the requests of this stage). */
  readonly rowAction?: (row: SummaryRow) => string;
}

export class SummaryTable {
  readonly el: HTMLTableElement;
  private readonly head = h('thead');
  private readonly body = h('tbody');
  private columnKey = '';
  private rows = new Map<string, RowParts>();

  constructor(
    private readonly onOpenStage: (stageId: number | null) => void,
    private readonly options: SummaryTableOptions = {
      testId: 'stage-summary',
      rowTestId: 'stage-row',
      label: 'Latency per stage',
      count: (n, row) => ({ text: `n=${n}`, title: row.countTitle?.(n) ?? `${n} requests measured in this stage` }),
    },
  ) {
    this.el = h(
      'table',
      { className: 'stage-table', testId: options.testId, attrs: { 'aria-label': options.label } },
      this.head,
      this.body,
    );
  }

  update(model: SummaryModel): void {
    const key = model.columns.map((c) => c.id).join('|');
    if (key !== this.columnKey) {
      this.columnKey = key;
      this.renderHead(model.columns);
      this.body.replaceChildren();
      this.rows.clear();
    }
    const seen = new Set<string>();
    model.rows.forEach((row, i) => {
      seen.add(row.key);
      let parts = this.rows.get(row.key);
      if (parts === undefined) {
        parts = this.createRow(row, model.columns);
        this.rows.set(row.key, parts);
      }
      // Keep DOM order equal to model order (a new stage may appear between others).
      if (this.body.children[i] !== parts.tr) this.body.insertBefore(parts.tr, this.body.children[i] ?? null);
      this.updateRow(parts, row, model.columns);
    });
    for (const [k, parts] of this.rows) {
      if (!seen.has(k)) {
        parts.tr.remove();
        this.rows.delete(k);
      }
    }
  }

  private renderHead(columns: readonly SummaryColumn[]): void {
    const tr = h('tr', {}, h('th', { text: this.options.rowHeader ?? 'stage', attrs: { scope: 'col' } }));
    for (const c of columns)
      tr.append(
        h('th', {
          text: c.unit === 'ms' || c.unit === '' ? c.label : `${c.label} (${c.unit})`,
          title: c.help,
          attrs: { scope: 'col' },
          dataset: { col: c.id },
        }),
      );
    this.head.replaceChildren(tr);
  }

  private createRow(row: SummaryRow, columns: readonly SummaryColumn[]): RowParts {
    const label = h('span', { className: 'stage-id' });
    const role = h('span', { className: 'stage-role' });
    const count = h('span', { className: 'stage-count muted' });
    const th = h('th', { attrs: { scope: 'row' } }, label, role, count);
    const tr = h(
      'tr',
      {
        testId: this.options.rowTestId,
        className: row.replica === null ? 'stage' : 'replica-row',
        attrs: { tabindex: '0' },
        dataset: { stageKey: row.key },
      },
      th,
    );
    const cells = new Map<string, CellParts>();
    for (const c of columns) {
      const value = h('span', { className: 'v' });
      const fill = h('span', { className: 'fill' });
      // data-label: the column name shown above the value in the narrow (card) layout.
      const td = h(
        'td',
        {
          dataset: {
            col: c.id,
            label: cardLabel(c.unit === 'ms' || c.unit === '' ? c.label : `${c.label} (${c.unit})`),
          },
        },
        value,
        h('span', { className: 'bar', attrs: { 'aria-hidden': 'true' } }, fill),
      );
      cells.set(c.id, { td, value, fill });
      tr.append(td);
    }
    const parts: RowParts = { tr, label, role, count, cells, stageId: row.stageId };
    const open = (): void => this.onOpenStage(parts.stageId);
    tr.addEventListener('click', open);
    tr.addEventListener('keydown', (ev) => {
      if (ev.key === 'Enter' || ev.key === ' ') {
        ev.preventDefault();
        open();
      } else if (ev.key === 'ArrowDown' || ev.key === 'ArrowUp') {
        ev.preventDefault();
        const sibling = ev.key === 'ArrowDown' ? tr.nextElementSibling : tr.previousElementSibling;
        if (sibling instanceof HTMLElement) sibling.focus();
      }
    });
    return parts;
  }

  private updateRow(parts: RowParts, row: SummaryRow, columns: readonly SummaryColumn[]): void {
    parts.stageId = row.stageId;
    setText(parts.label, row.label);
    setText(parts.role, row.role);
    const count = row.requestCount === null ? null : this.options.count(formatCount(row.requestCount), row);
    setText(parts.count, count?.text ?? '');
    setLiveTitle(parts.count, count?.title ?? '');
    setAttr(
      parts.tr,
      'aria-label',
      `${row.label}${row.role === '' ? '' : ` ${row.role}`}: ${this.options.rowAction?.(row) ?? 'open the requests of this stage'}`,
    );
    for (const c of columns) {
      const cell = row.cells[c.id];
      const p = parts.cells.get(c.id);
      if (cell !== undefined && p !== undefined) updateCell(p, cell);
    }
  }
}

function updateCell(p: CellParts, cell: SummaryCell): void {
  setText(p.value, cell.text);
  setData(p.value, 'state', cell.state);
  setData(p.value, 'partial', String(cell.partial === true));
  setData(p.value, 'few', String(cell.fewValues === true));
  setLiveTitle(p.td, cell.title);
  setData(p.td, 'hot', String(cell.hot));
  setData(p.td, 'barless', String(cell.barless === true));
  const width = `${(cell.ratio * 100).toFixed(1)}%`;
  if (p.fill.style.width !== width) p.fill.style.width = width;
}
