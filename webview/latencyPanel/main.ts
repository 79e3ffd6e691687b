// Latency panel: the request table, one request's timeline, requests over time and
// per-stage histograms of the current session. Rows, histograms and spans are asked of
// the extension host; live summaries only bump what changed.
import '../shared/base.css';
import './style.css';
import type { HostToWebview, Percentile, SessionInfo, SummaryResult, ViewFilter } from '../../server/protocol';
import { debounce, h, setText } from '../shared/dom';
import { emptyState } from '../shared/emptyState';
import { formatCount } from '../shared/format';
import { segmented } from '../shared/segmented';
import { sessionTitle as sessionTitleOf } from '../shared/sessionTitle';
import { onThemeChange } from '../shared/theme';
import { hostChannel } from '../shared/vscodeApi';
import { HistogramView } from './histogram/histogramView';
import { SpansView } from './spans/spansView';
import type { PanelState, PanelTab } from './state';
import { forNewSession, sanitizePanelState } from './state';
import { tableColumns } from './table/columns';
import { FilterBar } from './table/filterBar';
import type { TableQuery } from './table/requestTable';
import { RequestTable } from './table/requestTable';
import { Tabs } from './tabs';
import { WaterfallView } from './waterfall/waterfallView';

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

const persist = debounce(() => {
  const t = table.state();
  // Until spans arrive, the stored zoom is still the one to restore.
  const spansView = spans.loaded ? spans.currentView : state.spansView;
  state = { ...state, tab: tabs.active, scrollTop: t.scrollTop, selectedIndex: t.selectedIndex, selectedRequestId: t.selectedRequestId, spansView, histogram: histogram.current };
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
  if (state.findingCode !== null) q.findingCode = state.findingCode;
  return q;
}

function openRequest(requestId: string): void {
  update({ openRequestId: requestId });
  waterfall.loading(requestId);
  post({ type: 'queryRequest', requestId });
  tabs.activate('timeline');
}

// ------------------------------------------------------------------ views
const table = new RequestTable({
  post,
  nextSeq,
  open: (id) => openRequest(id),
  changed: () => persist(),
  sortRequested: (col) => {
    const descending = state.sortBy === col.id ? !state.descending : col.defaultDescending;
    update({ sortBy: col.id, descending, selectedIndex: -1, selectedRequestId: null, scrollTop: 0 });
    table.setQuery(tableQuery());
  },
});
const filterBar = new FilterBar((f) => {
  update({ filterText: f.filterText, stageId: f.stageId, findingCode: f.findingCode, selectedIndex: -1, selectedRequestId: null, scrollTop: 0 });
  table.setQuery(tableQuery());
});
filterBar.set({ filterText: state.filterText, stageId: state.stageId, findingCode: state.findingCode });
const waterfall = new WaterfallView();
const spans = new SpansView(
  (id) => openRequest(id),
  () => persist(),
);
const histogram = new HistogramView(state.histogram, post, nextSeq, () => persist());
const percentileSwitch = segmented<Percentile>('Percentile marker', ['p50', 'p90', 'p99'], state.percentile, 'percentile', (p) => {
  update({ percentile: p });
  histogram.setPercentile(p);
});
histogram.addControl(percentileSwitch.el);
histogram.setPercentile(state.percentile);

const requestsPanel = h('section', { className: 'requests-panel' }, filterBar.el, table.el);
const timelinePanel = h('section', { className: 'timeline-panel' }, waterfall.el);
const spansPanel = h('section', { className: 'spans-panel' }, spans.el);
const histogramsPanel = h('section', { className: 'histograms-panel' }, histogram.el);

const stale = { spans: true, histogram: true, spansAt: Number.NEGATIVE_INFINITY, histogramAt: Number.NEGATIVE_INFINITY };
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
      post({ type: 'querySpans' });
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
const errorBanner = h('div', { className: 'error-banner', role: 'alert', testId: 'error' });
errorBanner.hidden = true;
// Said once: requests with only [OmniTiming] lines (the server ran at INFO), and the fix.
const tablesNotice = h('div', { className: 'notice-banner', role: 'status', testId: 'tables-missing' });
tablesNotice.hidden = true;
const live = h(
  'div',
  { className: 'live' },
  h('header', { className: 'panel-head', testId: 'session-header' }, h('div', { className: 'session-text' }, sessionTitle, sessionMeta)),
  errorBanner,
  tablesNotice,
  tabs.list,
  requestsPanel,
  timelinePanel,
  spansPanel,
  histogramsPanel,
);
const empty = emptyState(post, 'No session to show. Start the demo server, or capture your own server.');
document.body.append(h('main', { id: 'latency-panel', className: 'latency-panel' }, live, empty));
live.hidden = true;
empty.hidden = true;

// ------------------------------------------------------------------ messages

function showHeader(): void {
  if (session === null) return;
  setText(sessionTitle, sessionTitleOf(session));
  sessionTitle.title = session.description;
  const n = summary?.requestCount ?? session.requestCount;
  const exit = session.exit;
  const ended = exit !== null && (session.status === 'crashed' || session.status === 'exited') ? ` (${exit.signal !== null ? `signal ${exit.signal}` : `exit code ${exit.code ?? '?'}`})` : '';
  setText(sessionMeta, `${session.status}${ended} · ${formatCount(n)} request${n === 1 ? '' : 's'}`);
}

function onSession(next: SessionInfo | null, names: Readonly<Record<string, string>>): void {
  const changed = !sessionSeen || next?.id !== session?.id;
  sessionSeen = true;
  session = next;
  stageNames = names;
  live.hidden = next === null;
  empty.hidden = next !== null;
  waterfall.setStageNames(names);
  spans.setStageNames(names);
  if (next === null) {
    summary = null;
    return;
  }
  showHeader();
  if (!changed) return;
  summary = null;
  const restoring = state.sessionId === next.id;
  if (!restoring) {
    state = forNewSession(state, next.id);
    filterBar.set({ filterText: '', stageId: null, findingCode: null });
    tabs.activate(state.tab, false);
    channel.saveState(state);
  }
  stale.spans = true;
  stale.histogram = true;
  table.setActive(tabs.active === 'requests');
  table.setQuery(tableQuery(), restoring ? { scrollTop: state.scrollTop, selectedIndex: state.selectedIndex, selectedRequestId: state.selectedRequestId } : undefined);
  if (state.openRequestId !== null) {
    waterfall.loading(state.openRequestId);
    post({ type: 'queryRequest', requestId: state.openRequestId });
  }
  refreshActive('shown');
}

function onSummary(next: SummaryResult): void {
  if (session === null || next.sessionId !== session.id) return;
  const before = summary?.requestCount;
  summary = next;
  tablesNotice.hidden = next.tablesMissing === null;
  setText(tablesNotice, next.tablesMissing?.message ?? '');
  table.setColumns(tableColumns(next.stages, stageNames, next.tablesMissing?.all === true));
  filterBar.setOptions(next.stages, next.findings, stageNames);
  histogram.setStages(next.stages, stageNames);
  showHeader();
  if (before === undefined) {
    refreshActive('shown');
    return;
  }
  if (before !== next.requestCount) {
    table.refresh();
    stale.spans = true;
    stale.histogram = true;
    refreshActive('live');
  }
}

function onFilter(filter: ViewFilter): void {
  update({ stageId: filter.stageId ?? null, findingCode: filter.findingCode ?? null, filterText: '', selectedIndex: -1, selectedRequestId: null, scrollTop: 0 });
  filterBar.set({ filterText: '', stageId: state.stageId, findingCode: state.findingCode });
  tabs.activate('requests');
  table.setQuery(tableQuery());
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
      spans.setSpans(msg.spans, state.spansView);
      break;
    case 'filter':
      onFilter(msg.filter);
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
  histogram.redraw();
});
window.addEventListener('pagehide', () => channel.saveState(state));
post({ type: 'ready' });
