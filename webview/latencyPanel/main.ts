// Latency panel: the request table, one request's timeline, requests over time and
// per-stage histograms of the current session. Rows, histograms and spans are asked of
// the extension host; live summaries only bump what changed.
import '../shared/base.css';
import './style.css';
import type {
  ExplainScope,
  HostToWebview,
  Percentile,
  SessionInfo,
  SummaryResult,
  TailFilter,
  ViewFilter,
} from '../../server/protocol';
import { button, debounce, h, setText, setTitle } from '../shared/dom';
import { emptyState } from '../shared/emptyState';
import { formatClock, formatDurationMs } from '../shared/format';
import { oneOutputStages, targetText } from '../shared/tailModel';
import { TailView } from './tail/tailView';
import { OverTimeView } from './overTime/overTimeView';
import { partialMark, statusWords } from '../shared/sessionStatus';
import { segmented } from '../shared/segmented';
import { onThemeChange } from '../shared/theme';
import { hostChannel } from '../shared/vscodeApi';
import { HistogramView } from './histogram/histogramView';
import { SpansView } from './spans/spansView';
import type { PanelState, PanelTab } from './state';
import { forNewSession, sanitizePanelState } from './state';
import { findingColumnId, tableColumns, targetColumnId } from './table/columns';
import { FilterBar } from './table/filterBar';
import type { TableQuery } from './table/requestTable';
import { RequestTable } from './table/requestTable';
import { Tabs } from './tabs';
import { WaterfallView } from './waterfall/waterfallView';
import { sessionCountText } from '../shared/overallOnly';
import { emptyTableText, noTailText } from '../shared/noRequests';
import { RunSummarySection } from '../shared/runSummarySection';
import { runSummaryView } from '../shared/runSummaryModel';
import { BootPicker } from '../shared/bootPicker';
import { ServerPicker } from '../shared/serverPicker';
import { noTableCauseOf } from '../shared/valueState';

const channel = hostChannel<PanelState>();
let state = sanitizePanelState(channel.loadState());
let session: SessionInfo | null = null;
let sessionSeen = false;
let stageNames: Readonly<Record<string, string>> = {};
let summary: SummaryResult | null = null;
let seq = 0;
const nextSeq = (): number => ++seq;
const post = channel.post;

// Live updates arrive up to 4/s; the heavier views refresh at most this often while shown.
const SPANS_REFRESH_MS = 2000;
const HISTOGRAM_REFRESH_MS = 1000;
const TAIL_REFRESH_MS = 1000;

/** The scope every view is over (Over Time window, exclude cold, one boot, one server); undefined: all requests. */
function scopeOf(): ExplainScope | undefined {
  const s = state.scope;
  if (s.fromMs === null && s.toMs === null && !s.excludeCold && s.boot === null && s.server === null) return undefined;
  return {
    ...(s.fromMs === null ? {} : { fromMs: s.fromMs }),
    ...(s.toMs === null ? {} : { toMs: s.toMs }),
    ...(s.excludeCold ? { excludeCold: true } : {}),
    ...(s.boot === null ? {} : { boot: s.boot }),
    ...(s.server === null ? {} : { server: s.server }),
  };
}

const persist = debounce(() => {
  const t = table.state();
  // Until spans arrive, the stored zoom is still the one to restore.
  const spansView = spans.loaded ? spans.currentView : state.spansView;
  state = {
    ...state,
    tab: tabs.active,
    scrollTop: t.scrollTop,
    selectedIndex: t.selectedIndex,
    selectedRequestId: t.selectedRequestId,
    spansView,
    histogram: histogram.current,
  };
  channel.saveState(state);
}, 150);

function update(next: Partial<PanelState>): void {
  state = { ...state, ...next };
  persist();
}

function tableQuery(): TableQuery {
  const q: { -readonly [K in keyof TableQuery]: TableQuery[K] } = {};
  if (state.sortBy !== null) {
    q.sortBy = state.sortBy;
    q.descending = state.descending;
  }
  if (state.filterText !== '') q.filterText = state.filterText;
  if (state.stageId !== null) q.stageId = state.stageId;
  if (state.stageId !== null && state.replicaId !== null) q.replicaId = state.replicaId;
  if (state.findingCode !== null) q.findingCode = state.findingCode;
  const scope = scopeOf();
  if (scope !== undefined) q.scope = scope;
  if (state.tail !== null) {
    q.atLeast = { target: state.tail.target, ms: state.tail.ms };
    // The tail slowest first, unless the user sorted by a column.
    if (state.sortBy === null) {
      q.sortBy = `target:${state.tail.target}`;
      q.descending = true;
    }
  }
  return q;
}

/** The tab a request was opened from: Escape in its timeline goes back there. */
let openedFrom: PanelTab | null = null;

/** Open a request's timeline, the keyboard focus on its heading (a hidden tab's focus would be lost). */
function openRequest(requestId: string, from: PanelTab): void {
  update({ openRequestId: requestId });
  waterfall.loading(requestId);
  post({ type: 'queryRequest', requestId });
  tabs.activate('timeline');
  openedFrom = from;
  waterfall.focus();
}

/** Escape in a timeline: back to the tab it was opened from, the focus on the table's row (or that tab). */
function backFromTimeline(): boolean {
  const back = openedFrom;
  if (back === null || tabs.active !== 'timeline') return false;
  openedFrom = null;
  tabs.activate(back);
  if (back === 'requests') table.focus();
  else tabs.focus(back);
  return true;
}

// ------------------------------------------------------------------ views
const table = new RequestTable({
  post,
  nextSeq,
  open: (id) => openRequest(id, 'requests'),
  changed: () => persist(),
  sortRequested: (col) => {
    const descending = state.sortBy === col.id ? !state.descending : col.defaultDescending;
    update({ sortBy: col.id, descending, selectedIndex: -1, selectedRequestId: null, scrollTop: 0 });
    table.setQuery(tableQuery());
  },
});
const filterBar = new FilterBar(
  (f) => {
    update({
      filterText: f.filterText,
      stageId: f.stageId,
      replicaId: f.replicaId,
      findingCode: f.findingCode,
      selectedIndex: -1,
      selectedRequestId: null,
      scrollTop: 0,
    });
    table.setQuery(tableQuery());
    revealFocus();
  },
  () => {
    // Clear: the tail filter goes too (the chip is part of the filters).
    update({ tail: null });
    showTailChip();
  },
);
filterBar.set({
  filterText: state.filterText,
  stageId: state.stageId,
  replicaId: state.replicaId,
  findingCode: state.findingCode,
});
const waterfall = new WaterfallView();
const spans = new SpansView(
  (id) => openRequest(id, 'spans'),
  () => persist(),
  // Drawn after the module ran (a frame later): overTime exists by then.
  (view) => overTime.setTimeView(view),
);
const histogram = new HistogramView(state.histogram, post, nextSeq, () => persist());
const percentileSwitch = segmented<Percentile>(
  'Percentile marker',
  ['p50', 'p90', 'p99'],
  state.percentile,
  'percentile',
  (p) => {
    update({ percentile: p });
    histogram.setPercentile(p);
  },
);
histogram.addControl(percentileSwitch.el);
histogram.setPercentile(state.percentile);

const tailChipText = h('span', { testId: 'tail-filter-text' });
const tailChip = h(
  'div',
  { className: 'tail-chip', testId: 'tail-filter', role: 'status' },
  tailChipText,
  button('Show all requests', { className: 'secondary', testId: 'tail-filter-clear' }, () => setTailFilter(null)),
);
tailChip.hidden = true;
const requestsPanel = h('section', { className: 'requests-panel' }, filterBar.el, tailChip, table.el);

function showTailChip(): void {
  const t = state.tail;
  tailChip.hidden = t === null;
  if (t !== null)
    setText(
      tailChipText,
      `Only the ${t.quantile} tail: ${targetText(t.target, stageNames)} ≥ ${formatDurationMs(t.ms)}, slowest first`,
    );
}

/**
 * Scroll the table to what it is filtered on: the stage picked, then the column of the
 * finding's phase (its TTFT for ttft-not-recorded) or of the tail's target.
 */
function revealFocus(): void {
  const code = state.findingCode;
  const findingStage =
    code === null ? null : (summary?.findings.find((f) => f.code === code && f.stageId !== null)?.stageId ?? null);
  const column =
    state.tail !== null
      ? targetColumnId(state.tail.target)
      : code === null
        ? null
        : findingColumnId(code, state.stageId ?? findingStage);
  if (state.stageId !== null || column !== null) table.reveal(state.stageId, column);
}

function setTailFilter(tail: TailFilter | null): void {
  update({
    tail,
    sortBy: tail === null ? state.sortBy : null,
    selectedIndex: -1,
    selectedRequestId: null,
    scrollTop: 0,
  });
  showTailChip();
  table.setQuery(tableQuery());
}

const tailView = new TailView(
  {
    post,
    nextSeq,
    openRequest: (id) => openRequest(id, 'tail'),
    showInTable: (t) => {
      setTailFilter(t);
      tabs.activate('requests');
      revealFocus();
      table.focus();
    },
    changed: (choice) => update({ tailChoice: choice }),
  },
  state.tailChoice,
);
const tailPanel = h('section', { className: 'tail-panel' }, tailView.el);

// One switch and one window for every view: the table, the histograms, the tail.
const excludeCold = h('input', { testId: 'exclude-cold', attrs: { type: 'checkbox' } });
excludeCold.checked = state.scope.excludeCold;
excludeCold.addEventListener('change', () => setScope({ ...state.scope, excludeCold: excludeCold.checked }));
const windowText = h('span', { testId: 'scope-window-text' });
const windowChip = h(
  'span',
  { className: 'scope-window', testId: 'scope-window' },
  windowText,
  button(
    '×',
    {
      className: 'icon-button',
      testId: 'scope-window-clear',
      attrs: { 'aria-label': 'Back to all requests (clear the time window)' },
    },
    () => setScope({ ...state.scope, fromMs: null, toMs: null }),
  ),
);
windowChip.hidden = true;
const scopeBar = h(
  'div',
  { className: 'scope-bar', role: 'group', attrs: { 'aria-label': 'Requests shown in every view' } },
  windowChip,
  h(
    'label',
    {
      className: 'check',
      title:
        'Leave the first request after each server start (warm-up, compilation) out of the table, histograms, tail and over-time charts',
    },
    excludeCold,
    ' Exclude cold',
  ),
);

// A session of several server boots: which pipeline each served, and the pick of one for every view.
// The summary (findings, columns) is asked of the host for the boot too.
const bootPicker = new BootPicker((boot) => {
  if (session === null) return;
  post({ type: 'selectBoot', sessionId: session.id, boot });
  setScope({ ...state.scope, boot });
});
// A log that merges several servers': the pick of one for every view, its summary asked of the host too.
const serverPicker = new ServerPicker((server) => {
  if (session === null) return;
  post({ type: 'selectServer', sessionId: session.id, server });
  setScope({ ...state.scope, server });
});

function showScope(): void {
  const s = state.scope;
  excludeCold.checked = s.excludeCold;
  windowChip.hidden = s.fromMs === null || s.toMs === null;
  if (s.fromMs !== null && s.toMs !== null)
    setText(
      windowText,
      `Window ${formatClock(s.fromMs - utcOffsetMs(s.fromMs), false)}–${formatClock(s.toMs - utcOffsetMs(s.toMs), false)} (${formatDurationMs(s.toMs - s.fromMs)})`,
    );
}

/** Log clock times are the printed fields read as UTC: shown as printed, in any time zone. */
function utcOffsetMs(t: number): number {
  return new Date(t).getTimezoneOffset() * -60_000;
}

function applyScope(): void {
  const scope = scopeOf();
  histogram.setScope(scope);
  tailView.setScope(scope);
  overTime.setScope(scope);
  showScope();
}

function setScope(scope: typeof state.scope): void {
  update({ scope, selectedIndex: -1, selectedRequestId: null, scrollTop: 0 });
  applyScope();
  table.setQuery(tableQuery());
  stale.histogram = true;
  stale.tail = true;
  stale.spans = true;
  refreshActive('shown');
}
const timelinePanel = h('section', { className: 'timeline-panel' }, waterfall.el);
timelinePanel.addEventListener('keydown', (ev) => {
  if (ev.key === 'Escape' && backFromTimeline()) ev.preventDefault();
});
const overTime = new OverTimeView(
  {
    post,
    nextSeq,
    selectWindow: (w) => setScope({ ...state.scope, fromMs: w?.fromMs ?? null, toMs: w?.toMs ?? null }),
    metricChanged: (metric) => update({ overTimeMetric: metric }),
    spanChanged: (span) => spans.setExtent(span),
  },
  state.overTimeMetric,
);
const spansPanel = h(
  'section',
  { className: 'spans-panel' },
  overTime.el,
  h('h3', { className: 'spans-heading', text: 'Each request' }),
  spans.el,
);
/** The Each request chart's last question: an answer to an earlier one (another scope, another session) is dropped. */
let spansSeq = -1;
function querySpans(): void {
  spansSeq = nextSeq();
  const scope = scopeOf();
  post({ type: 'querySpans', seq: spansSeq, ...(scope === undefined ? {} : { scope }) });
}
const histogramsPanel = h('section', { className: 'histograms-panel' }, histogram.el);

const stale = {
  spans: true,
  histogram: true,
  tail: true,
  spansAt: Number.NEGATIVE_INFINITY,
  histogramAt: Number.NEGATIVE_INFINITY,
  tailAt: Number.NEGATIVE_INFINITY,
};
let trailing: ReturnType<typeof setTimeout> | undefined;

/**
 * Fetch the shown tab's data when it is stale: at once when the tab is shown, at most every
 * few seconds for live updates (with a trailing refresh so the last update is not lost).
 */
function refreshActive(reason: 'shown' | 'live'): void {
  const now = performance.now();
  let wait = Number.POSITIVE_INFINITY;
  if (tabs.active === 'spans' && stale.spans) {
    const left = SPANS_REFRESH_MS - (now - stale.spansAt);
    if (reason === 'shown' || left <= 0) {
      stale.spans = false;
      stale.spansAt = now;
      querySpans();
      overTime.query();
    } else wait = left;
  }
  if (tabs.active === 'histograms' && summary !== null && stale.histogram) {
    const left = HISTOGRAM_REFRESH_MS - (now - stale.histogramAt);
    if (reason === 'shown' || left <= 0) {
      stale.histogram = false;
      stale.histogramAt = now;
      histogram.query();
    } else wait = Math.min(wait, left);
  }
  if (tabs.active === 'tail' && summary !== null && stale.tail) {
    const left = TAIL_REFRESH_MS - (now - stale.tailAt);
    if (reason === 'shown' || left <= 0) {
      stale.tail = false;
      stale.tailAt = now;
      tailView.query();
    } else wait = Math.min(wait, left);
  }
  if (Number.isFinite(wait) && trailing === undefined) {
    trailing = setTimeout(() => {
      trailing = undefined;
      refreshActive('live');
    }, wait);
  }
}

const tabs = new Tabs<PanelTab>(
  [
    { id: 'requests', label: 'Requests', panel: requestsPanel },
    { id: 'timeline', label: 'Request Timeline', panel: timelinePanel },
    { id: 'spans', label: 'Over Time', panel: spansPanel },
    { id: 'histograms', label: 'Histograms', panel: histogramsPanel },
    { id: 'tail', label: 'Tail', panel: tailPanel },
  ],
  state.tab,
  (tab) => {
    table.setActive(tab === 'requests');
    update({ tab });
    if (tab === 'timeline') waterfall.redraw();
    refreshActive('shown');
  },
);

const sessionTitle = h('span', { className: 'session-title', testId: 'session-title' });
const sessionMeta = h('span', { className: 'muted', testId: 'session-meta' });
// A log whose gzip data broke off: its numbers are of the part before the break, said under its name.
const partial = h('span', { className: 'partial-mark', testId: 'partial-mark' });
partial.hidden = true;
const errorBanner = h('div', { className: 'error-banner', role: 'alert', testId: 'error' });
errorBanner.hidden = true;
// Said once: requests with only [OmniTiming] lines (no stats tables), why, and the fix.
const tablesNotice = h('div', { className: 'notice-banner', role: 'status', testId: 'tables-missing' });
tablesNotice.hidden = true;
// The run summary the server printed, above the views of requests: the run's figures.
const runSummary = new RunSummarySection(false);
const live = h(
  'div',
  { className: 'live' },
  h(
    'header',
    { className: 'panel-head', testId: 'session-header' },
    h('div', { className: 'session-text' }, sessionTitle, sessionMeta, partial),
    scopeBar,
  ),
  errorBanner,
  bootPicker.el,
  serverPicker.el,
  tablesNotice,
  runSummary.el,
  tabs.list,
  requestsPanel,
  timelinePanel,
  spansPanel,
  histogramsPanel,
  tailPanel,
);
const empty = emptyState(post, 'No session to show. Start the demo server, or capture your own server.');
document.body.append(h('main', { id: 'latency-panel', className: 'latency-panel' }, live, empty));
live.hidden = true;
empty.hidden = true;

// ------------------------------------------------------------------ messages

function hideError(): void {
  errorBanner.hidden = true;
  setText(errorBanner, '');
}

function showHeader(): void {
  if (session === null) return;
  setText(sessionTitle, session.title);
  const mark = partialMark(session);
  partial.hidden = mark === null;
  setText(partial, mark?.text ?? '');
  setTitle(partial, mark?.title ?? '');
  sessionTitle.title = session.description;
  setText(
    sessionMeta,
    `${statusWords(session)} · ${sessionCountText(summary?.requestCount ?? session.requestCount, summary, session)}`,
  );
}

function onSession(next: SessionInfo | null, names: Readonly<Record<string, string>>): void {
  const changed = !sessionSeen || next?.id !== session?.id;
  sessionSeen = true;
  // An error answered a question about the session shown before (or about none).
  if (changed) hideError();
  session = next;
  stageNames = names;
  table.setStageNames(names);
  live.hidden = next === null;
  empty.hidden = next !== null;
  waterfall.setStageNames(names);
  spans.setStageNames(names);
  overTime.setStageNames(names);
  tailView.setStageNames(names);
  if (next === null) {
    summary = null;
    runSummary.update(null);
    bootPicker.update(null, null);
    serverPicker.update(null, null);
    return;
  }
  showHeader();
  // An import that read its file to the end: an empty table says why, and so does the Tail tab.
  table.setNoRequestsText(emptyTableText(next, changed ? null : summary));
  tailView.setNoTargetText(noTailText(next, changed ? null : summary));
  if (!changed) return;
  summary = null;
  runSummary.update(null);
  bootPicker.update(null, null);
  serverPicker.update(null, null);
  // A zoom and a series belong to the session they were made on.
  spans.forget();
  spansSeq = -1;
  overTime.forget();
  const restoring = state.sessionId === next.id;
  table.scrollToStart();
  if (!restoring) {
    // The host's feed keeps a pick per session: back in that session it would answer for the pick
    // this page forgets now, so every boot's and server's summary is asked for instead.
    if (state.scope.boot !== null) post({ type: 'selectBoot', sessionId: next.id, boot: null });
    if (state.scope.server !== null) post({ type: 'selectServer', sessionId: next.id, server: null });
    state = forNewSession(state, next.id);
    filterBar.set({ filterText: '', stageId: null, replicaId: null, findingCode: null });
    tabs.activate(state.tab, false);
    channel.saveState(state);
  }
  // A boot or server picked in this session before the page was reloaded: the host's summary is of it too.
  if (restoring && state.scope.boot !== null) post({ type: 'selectBoot', sessionId: next.id, boot: state.scope.boot });
  if (restoring && state.scope.server !== null)
    post({ type: 'selectServer', sessionId: next.id, server: state.scope.server });
  applyScope();
  showTailChip();
  stale.spans = true;
  stale.histogram = true;
  stale.tail = true;
  table.setActive(tabs.active === 'requests');
  table.setQuery(
    tableQuery(),
    restoring
      ? { scrollTop: state.scrollTop, selectedIndex: state.selectedIndex, selectedRequestId: state.selectedRequestId }
      : undefined,
  );
  if (state.openRequestId !== null) {
    waterfall.loading(state.openRequestId);
    post({ type: 'queryRequest', requestId: state.openRequestId });
  } else waterfall.clear();
  refreshActive('shown');
}

function onSummary(next: SummaryResult): void {
  if (session === null || next.sessionId !== session.id) return;
  const before = summary?.requestCount;
  summary = next;
  bootPicker.update(next.boots, state.scope.boot);
  serverPicker.update(next.sessionServers, state.scope.server);
  waterfall.setNoTableCause(noTableCauseOf(next));
  tablesNotice.hidden = next.tablesMissing === null;
  setText(tablesNotice, next.tablesMissing?.message ?? '');
  // Closed over a table of requests; open when it is all the log has.
  runSummary.update(runSummaryView(next.runSummaries, stageNames), next.requestCount === 0);
  table.setColumns(
    tableColumns(
      next.stages,
      stageNames,
      next.tablesMissing?.all === true,
      next.endToEnd?.ms ?? null,
      new Set((next.replicas ?? []).map((r) => r.stageKey)),
      noTableCauseOf(next),
      (next.servers?.length ?? 0) >= 2,
    ),
  );
  table.setNoRequestsText(session === null ? null : emptyTableText(session, next));
  tailView.setNoTargetText(noTailText(session, next));
  filterBar.setOptions(next.stages, next.findings, next.replicas ?? [], stageNames);
  histogram.setStages(next.stages, stageNames);
  overTime.setFindings(next.findings);
  tailView.setOneOutput(oneOutputStages(next.stages));
  showHeader();
  if (before === undefined) {
    refreshActive('shown');
    return;
  }
  if (before !== next.requestCount) {
    table.refresh();
    stale.spans = true;
    stale.histogram = true;
    stale.tail = true;
    refreshActive('live');
  }
}

function onFilter(filter: ViewFilter): void {
  // A tail from the side panel is its own sort (slowest first); other filters keep the user's sort.
  const tail = filter.tail ?? null;
  update({
    stageId: filter.stageId ?? null,
    replicaId: null,
    findingCode: filter.findingCode ?? null,
    filterText: '',
    tail,
    ...(tail === null ? {} : { sortBy: null }),
    selectedIndex: -1,
    selectedRequestId: null,
    scrollTop: 0,
  });
  showTailChip();
  filterBar.set({ filterText: '', stageId: state.stageId, replicaId: null, findingCode: state.findingCode });
  tabs.activate('requests');
  table.setQuery(tableQuery());
  revealFocus();
  table.focus();
}

channel.onMessage((msg: HostToWebview) => {
  switch (msg.type) {
    case 'session':
      onSession(msg.session, msg.stageNames);
      break;
    case 'summary':
      onSummary(msg.summary);
      break;
    case 'requestPage':
      table.acceptPage(msg.seq, msg.page);
      break;
    case 'requestDetail':
      if (msg.detail === null || msg.detail.request.requestId === state.openRequestId) waterfall.show(msg.detail);
      break;
    case 'histogram':
      histogram.accept(msg.seq, msg.histogram);
      break;
    case 'spans':
      // An answer for the session or the scope shown before would flash until this one's arrives.
      if (msg.seq === spansSeq && msg.sessionId === session?.id) spans.setSpans(msg.spans, state.spansView);
      break;
    case 'filter':
      onFilter(msg.filter);
      break;
    case 'tail':
      tailView.acceptTail(msg.seq, msg.tail);
      break;
    case 'loadAtArrival':
      tailView.acceptLoad(msg.seq, msg.load);
      break;
    case 'overTime':
      overTime.accept(msg.seq, msg.overTime);
      break;
    case 'error':
      errorBanner.hidden = false;
      setText(errorBanner, msg.message);
      // The failed question (if it was a page) may be asked again.
      table.failPending();
      break;
  }
});

onThemeChange(() => {
  waterfall.redraw();
  spans.redraw();
  overTime.redraw();
  histogram.redraw();
});
window.addEventListener('pagehide', () => channel.saveState(state));
post({ type: 'ready' });
