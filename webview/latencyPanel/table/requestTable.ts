// The request table: an ARIA grid whose rows are virtualized. The scroll container holds
// a spacer as tall as all rows; a pool of row elements is re-used for the rows in view
// (row i in slot i mod pool size, so scrolling rewrites only the rows that came into
// view), and pages of rows are fetched from the host by offset (sorted and filtered there).
//
// Scrolling cost, measured in headless Chromium (scripts/bench/webview.ts):
// - the request ids live in ONE column element that sticks to the left edge, not in a
//   sticky cell per row: every sticky cell is a composited layer of its own, and forty of
//   them re-layerized on every frame cost more than the rows' text. A row owns its id
//   cell through aria-owns, so assistive technology still reads one row.
// - rows are placed with `top` (no per-row transform, so no paint property node per row),
//   and re-rendered in the scroll event itself (same frame as the scroll, no rAF hop);
// - overscan follows the scroll: rows ahead are prepared, rows behind are not, and a
//   jump of more than a screen prepares none (they would never be seen);
// - pages are small (50 rows) so that each answer is parsed within one frame.
import type {
  AnalyzedRequest,
  RequestPage,
  RequestPageParams,
  RequestSortKey,
  WebviewToHost,
} from '../../../server/protocol';
import { h, setAttr, setData, setText, setTitle } from '../../shared/dom';
import { formatCompact, formatCount } from '../../shared/format';
import { PENDING_VIEW } from '../../shared/valueState';
import type { TableColumn } from './columns';
import {
  columnsInView,
  columnUnderIdColumn,
  isSlow,
  REQUEST_ID_COLUMN,
  sameColumns,
  scrollLeftToShowColumn,
  scrollLeftToShowStage,
  sortKeyLabel,
  totalWidth,
} from './columns';
import { HScrollbar } from './hScrollbar';
import { PageCache } from './pageCache';
import type { RowWindow } from './virtualWindow';
import { pagesCovering, rowWindow, scrollTopToReveal } from './virtualWindow';

export const ROW_HEIGHT = 22;
export const PAGE_SIZE = 50;
/** The legend of the slow mark; each marked cell's tooltip gives its stage's p90. */
export const SLOW_LEGEND = 'bold, underlined: above the p90 of its stage and column (its tooltip gives the p90)';

/** Rows prepared beyond the viewport: ahead when scrolling slowly, behind, and when idle (both sides). */
const OVERSCAN_AHEAD = 8;
const OVERSCAN_BEHIND = 2;
const OVERSCAN_IDLE = 4;
const MAX_IN_FLIGHT = 6;
const FETCH_THROTTLE_MS = 60;

const BLANK = 0;
const WRITTEN = 1;
const STALE = 2;

export type TableQuery = Omit<RequestPageParams, 'sessionId' | 'offset' | 'limit'>;

interface PooledRow {
  /** The row with its value cells (role row). */
  readonly el: HTMLDivElement;
  /** The request id cell, in the sticky id column (cells[0]). */
  readonly idCell: HTMLDivElement;
  readonly cells: HTMLDivElement[];
  /** One text node per cell, updated in place (no node churn while scrolling). */
  readonly texts: Text[];
  index: number;
  requestId: string | null;
  /** The row object shown (null: never filled, undefined: still loading). */
  request: AnalyzedRequest | undefined | null;
  /** columnsVersion the cells were written with. */
  version: number;
  /** Per cell: written for the current content (WRITTEN), empty (BLANK), or holding an earlier content's text (STALE). */
  readonly written: Uint8Array;
  y: number;
  selected: boolean;
}

export interface RequestTableEvents {
  post(message: WebviewToHost): void;
  nextSeq(): number;
  /** Enter / double click on a row. */
  open(requestId: string, index: number): void;
  /** Sort, selection or scroll changed (persist state). */
  changed(): void;
  sortRequested(column: TableColumn): void;
}

export class RequestTable {
  readonly el: HTMLElement;
  private readonly scroll: HTMLDivElement;
  private readonly grid: HTMLDivElement;
  private readonly groupRow: HTMLDivElement;
  private readonly headRow: HTMLDivElement;
  private readonly head: HTMLDivElement;
  private readonly body: HTMLDivElement;
  private readonly idColumn: HTMLDivElement;
  private readonly rowsEl: HTMLDivElement;
  private readonly status: HTMLDivElement;
  /** What a bold, underlined number means, shown while some column has a p90 to mark against. */
  private readonly slowLegend: HTMLParagraphElement;
  private readonly hScrollbar: HScrollbar;
  /** Shown over the grid when there is no row: why (nothing captured yet, or nothing matches). */
  private readonly empty: HTMLDivElement;
  private readonly emptyText: HTMLParagraphElement;
  /** Said by an empty, unfiltered table instead of "No requests yet" (a finished import of [Overall Summary] tables only). */
  private noRequestsText: string | null = null;
  /** What to scroll into view once the columns are known and the table is shown. */
  private pendingReveal: { stageId: number | null; columnId: RequestSortKey | null } | null = null;
  private columns: readonly TableColumn[] = [REQUEST_ID_COLUMN];
  private stageNames: Readonly<Record<string, string>> = {};
  /** Bumps when columns (or their p90 marks) change, so visible rows are rewritten. */
  private columnsVersion = 0;
  private pool: PooledRow[] = [];
  private cache = new PageCache<AnalyzedRequest>(PAGE_SIZE);
  private query: TableQuery = {};
  private total: number | null = null;
  private pendingScrollTop: number | null = null;
  private selected = -1;
  private selectedId: string | null = null;
  private frame = 0;
  private fetchTimer: ReturnType<typeof setTimeout> | undefined;
  private lastFetch = 0;
  private window: RowWindow = { first: 0, end: 0, offsetY: 0, spacerHeight: 0, scaled: false };
  /** First visible row of the last render: the scroll direction and speed of the next one. */
  private lastVisibleFirst = -1;
  /** +1 scrolling down, -1 up, 0 idle or jumping: the page beyond the window on that side is fetched ahead. */
  private direction = 0;
  private colRange = { from: 1, to: 1 };
  /** The column partly under the sticky id column, its text hidden (-1: none). */
  private covered = -1;
  private headHeight = ROW_HEIGHT * 2;
  /** scrollLeft to take when the table is next shown (a hidden table cannot scroll). */
  private pendingLeft: number | null = null;
  private active = false;

  constructor(private readonly events: RequestTableEvents) {
    this.groupRow = h('div', { className: 'grid-row group-row', attrs: { 'aria-hidden': 'true' } });
    this.headRow = h('div', { className: 'grid-row head-row', role: 'row', attrs: { 'aria-rowindex': '1' } });
    this.head = h('div', { className: 'grid-head', role: 'rowgroup' }, this.groupRow, this.headRow);
    this.rowsEl = h('div', { className: 'grid-rows' });
    this.idColumn = h('div', { className: 'id-column', role: 'none' });
    this.body = h('div', { className: 'grid-body', role: 'rowgroup' }, this.idColumn, this.rowsEl);
    this.grid = h(
      'div',
      {
        className: 'grid',
        role: 'grid',
        testId: 'request-table',
        attrs: {
          tabindex: '0',
          'aria-label': 'Requests: arrow keys move, Enter opens the timeline',
          'aria-rowcount': '1',
          'aria-colcount': '1',
          'aria-multiselectable': 'false',
        },
      },
      this.head,
      this.body,
    );
    this.scroll = h('div', { className: 'grid-scroll', testId: 'request-table-scroll' }, this.grid);
    this.status = h('div', {
      className: 'table-status muted',
      testId: 'request-total',
      attrs: { 'aria-live': 'polite' },
    });
    this.emptyText = h('p', {});
    this.empty = h('div', { className: 'table-empty', testId: 'request-table-empty', role: 'status' }, this.emptyText);
    this.empty.hidden = true;
    this.slowLegend = h(
      'p',
      { className: 'table-legend muted', testId: 'slow-legend' },
      h('span', { className: 'slow-sample', text: '1,234', attrs: { 'aria-hidden': 'true' } }),
      ` ${SLOW_LEGEND}`,
    );
    this.slowLegend.hidden = true;
    this.hScrollbar = new HScrollbar(this.scroll);
    this.el = h(
      'div',
      { className: 'table-region' },
      this.scroll,
      this.hScrollbar.el,
      this.empty,
      this.status,
      this.slowLegend,
    );
    this.scroll.addEventListener(
      'scroll',
      () => {
        // Scroll events come once per frame, before its animation callbacks: render now, so
        // the rows match the scroll position in this very frame (the scrollbar first: it
        // only reads sizes, which the rows' writes would make stale).
        if (this.active) {
          this.hScrollbar.sync();
          this.renderNow();
        }
        this.events.changed();
      },
      { passive: true },
    );
    this.grid.addEventListener('keydown', (ev) => this.onKey(ev));
    this.body.addEventListener('pointerover', (ev) => this.explainCell(ev.target));
    this.body.addEventListener('click', (ev) => this.onClick(ev, false));
    this.body.addEventListener('dblclick', (ev) => this.onClick(ev, true));
    new ResizeObserver(() => this.schedule()).observe(this.scroll);
    this.renderHead();
  }

  // ------------------------------------------------------------ public API

  /** Show or hide (a hidden table neither renders nor fetches). */
  setActive(active: boolean): void {
    this.active = active;
    if (!active) return;
    if (this.pendingReveal !== null) this.reveal(this.pendingReveal.stageId, this.pendingReveal.columnId);
    this.schedule();
  }

  setColumns(columns: readonly TableColumn[]): void {
    const same = sameColumns(columns, this.columns);
    // Same ids: keep the DOM, take the new p90 marks (they follow the live summary).
    this.columns = columns;
    this.columnsVersion += 1;
    this.slowLegend.hidden = !columns.some((c) => c.slowAbove !== null && c.slowAbove > 0);
    if (same) {
      this.schedule();
      return;
    }
    for (const row of this.pool) {
      row.el.remove();
      row.idCell.remove();
    }
    this.pool = [];
    this.covered = -1;
    this.renderHead();
    if (this.pendingReveal !== null) this.reveal(this.pendingReveal.stageId, this.pendingReveal.columnId);
    this.schedule();
  }

  /**
   * Scroll the table sideways so that the columns of stage `stageId` are in view (after a
   * click on a stage, or a stage picked in the filter), then column `columnId` (the phase a
   * finding or a tail is about, which may lie beyond the stage's first columns). Done when the
   * columns arrive and the table is shown, if it is not yet.
   */
  reveal(stageId: number | null, columnId: RequestSortKey | null = null): void {
    const width = this.scroll.clientWidth;
    let left = this.scroll.scrollLeft;
    let found = false;
    if (width > 0 && stageId !== null) {
      const l = scrollLeftToShowStage(this.columns, stageId, left, width);
      if (l !== null) [left, found] = [l, true];
    }
    if (width > 0 && columnId !== null) {
      const l = scrollLeftToShowColumn(this.columns, columnId, left, width);
      if (l !== null) [left, found] = [l, true];
    }
    if (!found) {
      this.pendingReveal = { stageId, columnId };
      return;
    }
    this.pendingReveal = null;
    this.pendingLeft = null;
    if (this.scroll.scrollLeft !== left) this.scroll.scrollLeft = left;
  }

  /** Another session: back to its first column (a narrower table would start mid-way, its ids cut). */
  scrollToStart(): void {
    this.pendingReveal = null;
    this.pendingLeft = 0;
    this.schedule();
  }

  /** A new sort or filter: the rows are fetched from the start. */
  setQuery(
    query: TableQuery,
    restore?: { scrollTop: number; selectedIndex: number; selectedRequestId: string | null },
  ): void {
    this.query = query;
    this.cache.reset();
    this.total = null;
    this.selected = restore?.selectedIndex ?? -1;
    this.selectedId = restore?.selectedRequestId ?? null;
    this.pendingScrollTop = restore?.scrollTop ?? 0;
    this.updateSortIndicators();
    this.updateStatus();
    // Ask now for the first page and the page the restored position needs.
    const firstRow = Math.floor((restore?.scrollTop ?? 0) / ROW_HEIGHT);
    const pages = new Set([0, ...pagesCovering(firstRow, firstRow + 60, PAGE_SIZE)]);
    this.fetch([...pages]);
  }

  /** Stage roles, for the footer's words of a sort by a target ("time to first audio" of stage 1, code2wav). */
  setStageNames(names: Readonly<Record<string, string>>): void {
    this.stageNames = names;
    this.updateStatus();
  }

  setNoRequestsText(text: string | null): void {
    if (text === this.noRequestsText) return;
    this.noRequestsText = text;
    this.updateEmpty();
  }

  /** New requests arrived: keep what is on screen, fetch it again, keep the scroll position. */
  refresh(): void {
    this.cache.markStale();
    this.scheduleFetch();
  }

  acceptPage(seq: number, page: RequestPage): void {
    const accepted = this.cache.accept(seq, page.requests, page.total);
    if (accepted === null) return;
    if (this.total !== page.total) {
      this.total = page.total;
      this.layoutSpacer();
    }
    if (this.pendingScrollTop !== null) {
      this.scroll.scrollTop = this.pendingScrollTop;
      this.pendingScrollTop = null;
    }
    this.updateStatus();
    this.schedule();
    // Another page may be waiting for a free request slot.
    this.scheduleFetch();
  }

  /** The host reported an error: pages asked for may never be answered, so ask again later. */
  failPending(): void {
    this.cache.failAll();
    setTimeout(() => this.scheduleFetch(), 1000);
  }

  state(): { scrollTop: number; selectedIndex: number; selectedRequestId: string | null } {
    return {
      scrollTop: this.pendingScrollTop ?? this.scroll.scrollTop,
      selectedIndex: this.selected,
      selectedRequestId: this.selectedId,
    };
  }

  focus(): void {
    this.grid.focus();
  }

  // ------------------------------------------------------------ rendering

  private schedule(): void {
    if (this.frame !== 0 || !this.active) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.hScrollbar.sync();
      this.render();
    });
  }

  private renderNow(): void {
    if (this.frame !== 0) {
      cancelAnimationFrame(this.frame);
      this.frame = 0;
    }
    this.render();
  }

  /** Overscan rows before and after the viewport for a move from the last render's first row. */
  private overscanFor(visibleFirst: number, visibleRows: number): { before: number; after: number } {
    const last = this.lastVisibleFirst;
    this.lastVisibleFirst = visibleFirst;
    if (last < 0 || last === visibleFirst) return { before: OVERSCAN_IDLE, after: OVERSCAN_IDLE };
    const step = Math.abs(visibleFirst - last);
    // Jumping (a scrollbar drag) fetches nothing ahead: that page would be passed before it arrives.
    this.direction = step >= visibleRows ? 0 : visibleFirst > last ? 1 : -1;
    // A jump past a screen: the next frame jumps again, rows beyond the viewport are never seen.
    const ahead = step >= visibleRows ? 0 : Math.min(OVERSCAN_AHEAD, step + 2);
    return visibleFirst > last ? { before: OVERSCAN_BEHIND, after: ahead } : { before: ahead, after: OVERSCAN_BEHIND };
  }

  private layoutSpacer(): void {
    const total = this.total ?? 0;
    const win = rowWindow({ scrollTop: 0, viewportHeight: 0, rowHeight: ROW_HEIGHT, total, overscan: 0 });
    this.body.style.height = `${win.spacerHeight}px`;
    setAttr(this.grid, 'aria-rowcount', String(total + 1));
  }

  private viewport(): number {
    return Math.max(ROW_HEIGHT, this.scroll.clientHeight - this.headHeight);
  }

  private render(): void {
    const total = this.total ?? 0;
    if (this.pendingLeft !== null && this.scroll.clientWidth > 0) {
      if (this.scroll.scrollLeft !== this.pendingLeft) this.scroll.scrollLeft = this.pendingLeft;
      this.pendingLeft = null;
    }
    this.headHeight = this.head.offsetHeight || this.headHeight;
    const input = {
      scrollTop: this.scroll.scrollTop,
      viewportHeight: this.viewport(),
      rowHeight: ROW_HEIGHT,
      total,
      overscan: 0,
    };
    const visible = rowWindow(input);
    const overscan = this.overscanFor(visible.first, visible.end - visible.first);
    const win = rowWindow({ ...input, overscan: overscan.before, overscanAfter: overscan.after });
    this.window = win;
    this.colRange = columnsInView(this.columns, this.scroll.scrollLeft, this.scroll.clientWidth);
    this.cover(columnUnderIdColumn(this.columns, this.scroll.scrollLeft));
    const count = win.end - win.first;
    if (this.pool.length < count) {
      // Grow with some slack; slots are keyed by index modulo the pool size, so re-key all.
      while (this.pool.length < count + 8) this.pool.push(this.createRow());
      for (const row of this.pool) row.index = -1;
    }
    // Row `index` lives in slot index % size while it stays in the window: a scroll step
    // refills only the rows that entered, the others keep their content and position.
    const size = this.pool.length;
    let activeId = '';
    for (let slot = 0; slot < size; slot++) {
      const row = this.pool[slot] as PooledRow;
      const index = win.first + ((slot - (win.first % size) + size) % size);
      if (index >= win.end) {
        if (!row.el.hidden) {
          row.el.hidden = true;
          row.idCell.hidden = true;
        }
        continue;
      }
      if (row.el.hidden) {
        row.el.hidden = false;
        row.idCell.hidden = false;
      }
      const y = win.scaled ? win.offsetY + (index - win.first) * ROW_HEIGHT : index * ROW_HEIGHT;
      if (row.y !== y) {
        row.y = y;
        const top = `${y}px`;
        row.el.style.top = top;
        row.idCell.style.top = top;
      }
      this.fillRow(row, index);
      if (index === this.selected) activeId = row.el.id;
    }
    setAttr(this.grid, 'aria-activedescendant', activeId);
    this.scheduleFetch();
  }

  /** Hide the text of column `c` (partly under the id column) in the header and every row; show the last one's again. */
  private cover(c: number): void {
    if (c === this.covered) return;
    const headers = this.headRow.children;
    for (const [at, on] of [
      [this.covered, false],
      [c, true],
    ] as const) {
      if (at < 0) continue;
      const header = headers[at];
      if (header instanceof HTMLElement) setData(header, 'covered', String(on));
      for (const row of this.pool) {
        const cell = row.cells[at];
        if (cell !== undefined) setData(cell, 'covered', String(on));
      }
    }
    this.covered = c;
  }

  private fillRow(row: PooledRow, index: number): void {
    const request = this.cache.row(index);
    const selected = index === this.selected;
    if (selected && request !== undefined) this.selectedId = request.requestId;
    const selectionChanged = row.selected !== selected;
    if (selectionChanged) {
      row.selected = selected;
      row.el.setAttribute('aria-selected', String(selected));
      row.idCell.dataset['selected'] = String(selected);
    }
    const same = row.index === index && row.request === request && row.version === this.columnsVersion;
    if (!same) {
      if (row.index !== index) {
        row.index = index;
        row.el.id = `request-row-${index}`;
        row.el.setAttribute('aria-rowindex', String(index + 2));
        const at = String(index);
        row.el.dataset['index'] = at;
        row.idCell.dataset['index'] = at;
      }
      row.request = request;
      row.version = this.columnsVersion;
      row.requestId = request?.requestId ?? null;
      const written = row.written;
      for (let c = 0; c < written.length; c++) if (written[c] === WRITTEN) written[c] = STALE;
      setData(row.idCell, 'cold', String(request?.cold === true));
      setData(row.el, 'pending', String(request === undefined));
    }
    // A row still loading shows "…" in its id cell; its other cells are hidden by CSS and
    // not written (fast scrolling passes many such rows).
    const wrote =
      this.writeCell(row, 0) + (request === undefined ? 0 : this.writeCells(row, this.colRange.from, this.colRange.to));
    if (!same && request !== undefined) this.blankStale(row);
    if (selected && (wrote > 0 || selectionChanged)) this.explainRow(row);
  }

  /**
   * Empty the cells outside the columns in view that still hold an earlier request's text: a
   * screen reader or a copy would read them as this row's. Only cells written earlier are
   * touched, so a row that never scrolled sideways costs nothing here.
   */
  private blankStale(row: PooledRow): void {
    const written = row.written;
    for (let c = 1; c < written.length; c++) {
      if (written[c] !== STALE) continue;
      written[c] = BLANK;
      const text = row.texts[c] as Text;
      if (text.data !== '') text.data = '';
      const cell = row.cells[c] as HTMLDivElement;
      delete cell.dataset['state'];
      delete cell.dataset['slow'];
      if (cell.title !== '') cell.title = '';
    }
  }

  /** Write the cells of [from, to) that are not written yet; returns how many were. */
  private writeCells(row: PooledRow, from: number, to: number): number {
    let n = 0;
    for (let c = from; c < to; c++) n += this.writeCell(row, c);
    return n;
  }

  private writeCell(row: PooledRow, c: number): number {
    if (row.written[c] === WRITTEN) return 0;
    row.written[c] = WRITTEN;
    const column = this.columns[c] as TableColumn;
    const cell = row.cells[c] as HTMLDivElement;
    const text = row.texts[c] as Text;
    const request = row.request;
    const view = request === undefined || request === null ? PENDING_VIEW : column.cell(request);
    if (text.data !== view.text) text.data = view.text;
    if (cell.dataset['state'] !== view.state) cell.dataset['state'] = view.state;
    // Titles are written on hover/focus (explainCell): one per pointer move instead of one
    // per cell per frame while scrolling. A stale one is dropped here.
    if (cell.title !== '') cell.title = '';
    const slow = isSlow(view.value, column.slowAbove) ? 'true' : 'false';
    if (cell.dataset['slow'] !== slow) cell.dataset['slow'] = slow;
    return 1;
  }

  /** The selected row carries all its explanations (keyboard users cannot hover). */
  private explainRow(row: PooledRow): void {
    row.cells.forEach((cell) => this.explainCell(cell));
  }

  private createRow(): PooledRow {
    const slot = String(this.pool.length);
    const texts: Text[] = [];
    const cells = this.columns.map((col, i) => {
      const dataset: Record<string, string> = { col: col.id, slot, covered: String(i === this.covered) };
      if (col.phase !== null) dataset['phase'] = col.phase;
      const text = document.createTextNode('');
      texts.push(text);
      const attrs = { 'aria-colindex': String(i + 1) };
      const cell =
        i === 0
          ? h(
              'div',
              {
                className: 'cell v id-cell',
                role: 'rowheader',
                testId: 'request-id',
                id: `request-id-${slot}`,
                attrs,
                dataset: { ...dataset, selected: 'false' },
              },
              text,
            )
          : h('div', { className: 'cell v', role: 'gridcell', attrs, dataset }, text);
      cell.style.width = `${col.width}px`;
      return cell;
    });
    const [idCell, ...valueCells] = cells as [HTMLDivElement, ...HTMLDivElement[]];
    const el = h(
      'div',
      {
        className: 'grid-row data-row',
        role: 'row',
        testId: 'request-row',
        attrs: { 'aria-selected': 'false', 'aria-owns': idCell.id },
        dataset: { slot },
      },
      valueCells,
    );
    el.style.width = `${totalWidth(this.columns)}px`;
    el.style.paddingLeft = `${this.columns[0]?.width ?? 0}px`;
    el.hidden = true;
    idCell.hidden = true;
    this.rowsEl.append(el);
    this.idColumn.append(idCell);
    return {
      el,
      idCell,
      cells,
      texts,
      index: -1,
      requestId: null,
      request: null,
      version: -1,
      written: new Uint8Array(cells.length),
      y: Number.NaN,
      selected: false,
    };
  }

  private renderHead(): void {
    const width = `${totalWidth(this.columns)}px`;
    this.idColumn.style.width = `${this.columns[0]?.width ?? 0}px`;
    this.grid.style.setProperty('--sl-id-width', this.idColumn.style.width);
    this.groupRow.replaceChildren();
    this.headRow.replaceChildren();
    this.groupRow.style.width = width;
    this.headRow.style.width = width;
    // Group cells span the columns of one stage.
    let i = 0;
    while (i < this.columns.length) {
      const group = (this.columns[i] as TableColumn).group;
      let w = 0;
      let j = i;
      while (j < this.columns.length && (this.columns[j] as TableColumn).group === group)
        w += (this.columns[j++] as TableColumn).width;
      const cell = h(
        'div',
        { className: i === 0 ? 'cell group-cell id-cell' : 'cell group-cell' },
        h('span', { className: 'group-label', text: group, testId: 'group-label' }),
      );
      cell.style.width = `${w}px`;
      this.groupRow.append(cell);
      i = j;
    }
    for (const col of this.columns) {
      const label = col.group === '' ? col.label : `${col.group} ${col.label}`;
      const sortButton = h('button', {
        className: 'sort-button',
        text: col.label,
        testId: 'sort',
        attrs: { type: 'button', 'aria-label': `Sort by ${label}` },
        dataset: { sortKey: col.id },
      });
      sortButton.addEventListener('click', () => this.events.sortRequested(col));
      const header = h(
        'div',
        {
          className: col.id === 'requestId' ? 'cell head-cell id-cell' : 'cell head-cell',
          role: 'columnheader',
          title: label,
          dataset: { col: col.id },
        },
        sortButton,
      );
      header.style.width = `${col.width}px`;
      this.headRow.append(header);
    }
    setAttr(this.grid, 'aria-colcount', String(this.columns.length));
    this.updateSortIndicators();
  }

  private updateSortIndicators(): void {
    for (const header of Array.from(this.headRow.children) as HTMLElement[]) {
      const on = header.dataset['col'] === this.query.sortBy;
      setAttr(header, 'aria-sort', on ? (this.query.descending === true ? 'descending' : 'ascending') : 'none');
    }
  }

  private updateStatus(): void {
    const parts: string[] = [];
    parts.push(
      this.total === null ? 'Loading requests…' : `${formatCount(this.total)} request${this.total === 1 ? '' : 's'}`,
    );
    if (this.query.filterText) parts.push(`id contains “${this.query.filterText}”`);
    if (this.query.stageId !== undefined) parts.push(`on stage ${this.query.stageId}`);
    if (this.query.findingCode !== undefined) parts.push(`named by finding ${this.query.findingCode}`);
    if (this.query.sortBy !== undefined) {
      const name = sortKeyLabel(this.query.sortBy, this.columns, this.stageNames);
      // Ids and servers are text: in the order of their characters (a request of no server's tag last).
      const text = this.query.sortBy === 'requestId' || this.query.sortBy === 'server';
      const none = this.query.sortBy === 'server' ? '; requests of no server last' : '';
      const order =
        this.query.descending === true
          ? text
            ? `(Z to A${none})`
            : '(largest first; unknown values last)'
          : text
            ? `(A to Z${none})`
            : '(smallest first; unknown values last)';
      parts.push(`sorted by ${name} ${order}`);
    }
    setText(this.status, parts.join(' · '));
    setData(this.status, 'total', this.total === null ? '' : String(this.total));
    this.updateEmpty();
  }

  private updateEmpty(): void {
    this.empty.hidden = this.total !== 0;
    if (this.total !== 0) return;
    const narrowed =
      this.query.filterText !== undefined || this.query.stageId !== undefined || this.query.findingCode !== undefined;
    setData(this.empty, 'reason', narrowed ? 'filtered' : 'none');
    setText(
      this.emptyText,
      narrowed
        ? 'No request matches this filter. Clear (above) shows every request.'
        : (this.noRequestsText ??
            'No requests yet. They appear here as the server finishes them (a request is listed once its stage tables are printed).'),
    );
  }

  // ------------------------------------------------------------ fetching

  private scheduleFetch(): void {
    if (this.fetchTimer !== undefined) return;
    const wait = Math.max(0, FETCH_THROTTLE_MS - (performance.now() - this.lastFetch));
    this.fetchTimer = setTimeout(() => {
      this.fetchTimer = undefined;
      this.lastFetch = performance.now();
      // Until the first answer the total is unknown, and an empty table has no window:
      // either way page 0 tells the (new) total.
      if (this.total === null || this.total === 0) {
        this.fetch([0]);
        return;
      }
      // The window's pages first, then the next page in the scroll direction, so that rows
      // scrolled into view at a reading pace are there already.
      const { first, end } = this.window;
      const ahead =
        this.direction > 0
          ? [Math.floor((end - 1) / PAGE_SIZE) + 1]
          : this.direction < 0
            ? [Math.floor(first / PAGE_SIZE) - 1]
            : [];
      const last = Math.floor(Math.max(0, this.total - 1) / PAGE_SIZE);
      this.fetch([...pagesCovering(first, end, PAGE_SIZE), ...ahead.filter((p) => p >= 0 && p <= last)]);
    }, wait);
  }

  private fetch(pages: readonly number[]): void {
    for (const page of this.cache.wanted(pages)) {
      if (this.cache.pendingCount() >= MAX_IN_FLIGHT) break;
      const seq = this.events.nextSeq();
      const { offset, limit } = this.cache.request(seq, page);
      this.events.post({ type: 'queryRequests', seq, params: { ...this.query, offset, limit } });
    }
  }

  // ------------------------------------------------------------ interaction

  private select(index: number, reveal: boolean): void {
    const total = this.total ?? 0;
    if (total === 0) return;
    this.selected = Math.max(0, Math.min(total - 1, index));
    this.selectedId = this.cache.row(this.selected)?.requestId ?? null;
    if (reveal) {
      const top = scrollTopToReveal(
        {
          scrollTop: this.scroll.scrollTop,
          viewportHeight: this.viewport(),
          rowHeight: ROW_HEIGHT,
          total,
          overscan: 0,
        },
        this.selected,
      );
      if (top !== null) this.scroll.scrollTop = top;
    }
    this.render();
    this.events.changed();
  }

  private onKey(ev: KeyboardEvent): void {
    // A sort button in the header has the focus: Enter and Space are its own (they sort).
    if (ev.target instanceof HTMLButtonElement) return;
    const page = Math.max(1, Math.floor(this.viewport() / ROW_HEIGHT) - 1);
    const at = this.selected < 0 ? this.window.first - 1 : this.selected;
    const moves: Record<string, number> = {
      ArrowDown: at + 1,
      ArrowUp: at - 1,
      PageDown: at + page,
      PageUp: at - page,
      Home: 0,
      End: (this.total ?? 1) - 1,
    };
    const target = moves[ev.key];
    if (target !== undefined) {
      ev.preventDefault();
      this.select(target, true);
      return;
    }
    if (ev.key === 'Enter' && this.selected >= 0) {
      ev.preventDefault();
      const id = this.selectedId ?? this.cache.row(this.selected)?.requestId;
      if (id !== undefined && id !== null) this.events.open(id, this.selected);
    }
  }

  /** Give the cell under the pointer its explanation (title) from its row and column. */
  private explainCell(target: EventTarget | null): void {
    if (!(target instanceof HTMLElement) || !target.classList.contains('cell')) return;
    const row = this.pool[Number(target.dataset['slot'])];
    const column = this.columns[row?.cells.indexOf(target as HTMLDivElement) ?? -1];
    if (row === undefined || column === undefined) return;
    const view = row.request === undefined || row.request === null ? PENDING_VIEW : column.read(row.request);
    const slow = isSlow(view.value, column.slowAbove)
      ? ` Bold, underlined: above this stage's p90 (${formatCompact(column.slowAbove ?? 0)} ms).`
      : '';
    setTitle(target, `${view.title}${slow}`);
  }

  private onClick(ev: MouseEvent, open: boolean): void {
    // A row's value cells and its id cell (in the id column) both carry its index.
    const rowEl = (ev.target as HTMLElement).closest('.data-row, .id-cell');
    if (!(rowEl instanceof HTMLElement)) return;
    const index = Number(rowEl.dataset['index']);
    if (!Number.isInteger(index)) return;
    this.grid.focus({ preventScroll: true });
    this.select(index, false);
    const id = this.cache.row(index)?.requestId;
    if (open && id !== undefined) this.events.open(id, index);
  }
}
