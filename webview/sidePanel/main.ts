// Side-panel latency view: the live per-stage summary of the current session.
import '../shared/base.css';
import './style.css';
import type {
  Finding,
  HostToWebview,
  Percentile,
  ScrapeRestart,
  SessionInfo,
  SummaryResult,
  TailAttributionResult,
  ViewFilter,
} from '../../server/protocol';
import { button, h, setText, setTitle } from '../shared/dom';
import { emptyState } from '../shared/emptyState';
import { segmented } from '../shared/segmented';
import { partialMark, statusWords } from '../shared/sessionStatus';
import { sessionCountText } from '../shared/overallOnly';
import { noStageStatsNotice } from '../shared/noRequests';
import { METRICS_ONLY_TEXT, metricsOnly } from '../shared/scrapeRequests';
import { formatClock, formatCount } from '../shared/format';
import { onThemeChange } from '../shared/theme';
import { hostChannel } from '../shared/vscodeApi';
import { FindingsList } from './findingsList';
import type { SidePanelState } from './state';
import { addTrendPoint, bootOf, sanitizeSideState, serverOf, trendKey, trendOf } from './state';
import { BootPicker } from '../shared/bootPicker';
import { ServerPicker } from '../shared/serverPicker';
import { prometheusModel } from './prometheusModel';
import { PrometheusSection } from './prometheusSection';
import { scrapeModel } from './scrapeModel';
import { headline, summaryModel, trendLabel } from './summaryModel';
import { edgeModel } from './edgeModel';
import { endToEndModel } from './endToEndModel';
import { SummaryTable } from './summaryTable';
import { legacyStatsOnly, timingModel } from './timingModel';
import { overallCaption, overallModel } from './overallModel';
import { Trend } from './trend';
import {
  NEGATIVE_ADDED_NOTE,
  overallSummaryOnlyMessage,
  TTFT_WAITED_MARK,
  TTFT_WAITED_TEXT,
  valuesAbovePercentile,
} from '../../server/shared';
import { TailSection } from './tailSection';
import { RunSummarySection } from '../shared/runSummarySection';
import { runSummaryView } from '../shared/runSummaryModel';
import { oneOutputStages } from '../shared/tailModel';

const channel = hostChannel<SidePanelState>();
let state = sanitizeSideState(channel.loadState());
let session: SessionInfo | null = null;
let stageNames: Readonly<Record<string, string>> = {};
let summary: SummaryResult | null = null;
let tail: TailAttributionResult | null = null;

const save = (next: Partial<SidePanelState>): void => {
  state = { ...state, ...next };
  channel.saveState(state);
};

const openPanel = (filter: ViewFilter): void => channel.post({ type: 'openLatencyPanel', filter });

// ------------------------------------------------------------------ layout
const statusDot = h('span', { className: 'status-dot', attrs: { 'aria-hidden': 'true' } });
const sessionTitle = h('span', { className: 'session-title', testId: 'session-title' });
const sessionMeta = h('span', { className: 'session-meta muted', testId: 'session-meta' });
// A log whose gzip data broke off: its numbers are of the part before the break, said under its name.
const partial = h('span', { className: 'partial-mark', testId: 'partial-mark' });
partial.hidden = true;
const errorBanner = h('div', { className: 'error-banner', role: 'alert', testId: 'error' });
errorBanner.hidden = true;
// Said once: the session has only [OmniTiming] lines (no stats tables), why, and the fix.
const tablesNotice = h('div', { className: 'notice-banner', role: 'status', testId: 'tables-missing' });
tablesNotice.hidden = true;
// Said once: the log has [Overall Summary] tables and no per-request stage table, and the fix.
const overallNotice = h('div', { className: 'notice-banner', role: 'status', testId: 'overall-summary-only' });
overallNotice.hidden = true;
// A session of several server boots: which pipeline each served, and the pick of one, above the numbers.
const bootPicker = new BootPicker((boot) => {
  if (session === null) return;
  save({ boot: boot === null ? null : { sessionId: session.id, boot } });
  channel.post({ type: 'selectBoot', sessionId: session.id, boot });
  render();
});
// A log that merges several servers': the pick of one, beside the boots (both picked: that server's requests of that boot).
const serverPicker = new ServerPicker((server) => {
  if (session === null) return;
  save({ server: server === null ? null : { sessionId: session.id, server } });
  channel.post({ type: 'selectServer', sessionId: session.id, server });
  render();
});
const header = h(
  'header',
  { className: 'session', testId: 'session-header' },
  statusDot,
  h('div', { className: 'session-text' }, sessionTitle, sessionMeta, partial),
  button('Open Latency Details', { className: 'secondary', testId: 'open-panel' }, () => openPanel({})),
);
const percentileSwitch = segmented<Percentile>(
  'Percentile',
  ['p50', 'p90', 'p99'],
  state.percentile,
  'percentile',
  (p) => {
    save({ percentile: p });
    render();
  },
);
const trend = new Trend();
const table = new SummaryTable((stageId) => openPanel(stageId === null ? {} : { stageId }));
const scrapeTable = new SummaryTable((stageId) => openPanel(stageId === null ? {} : { stageId }), {
  testId: 'scrape-summary',
  rowTestId: 'scrape-row',
  label: "Latency per stage from the server's /metrics histograms",
  count: (n, row) => ({
    text: `${n} requests`,
    title: `${n} requests this series finished since the server started: the count of ${row.countSource ?? 'a per-request histogram'}, observed once per request (not requests of this log; per-token histograms such as ITL count tokens, not requests)`,
  }),
});
const SCRAPE_NOTE =
  'histogram_quantile estimates over everything the server observed since it started; the table above is computed per request from the log.';
const scrapeNote = h('p', { className: 'muted note', testId: 'scrape-note', text: SCRAPE_NOTE });
// A restart of the scraped server: its counts went down, the histograms start again from then.
const scrapeRestartNote = h('p', { className: 'notice-banner', role: 'status', testId: 'scrape-restart' });
scrapeRestartNote.hidden = true;
const scrapeSection = h(
  'section',
  { className: 'scrape-section', testId: 'scrape-section', attrs: { 'aria-label': 'From /metrics' } },
  h(
    'h2',
    {},
    'From /metrics ',
    h('span', { className: 'muted source-note', text: 'Prometheus histograms · last scrape' }),
  ),
  scrapeNote,
  scrapeRestartNote,
  h('div', { className: 'table-wrap' }, scrapeTable.el),
);
scrapeSection.hidden = true;
const slowestText = h('span', { testId: 'slowest-phase-text' });
const slowestLine = h(
  'p',
  { className: 'slowest-phase muted', testId: 'slowest-phase' },
  h('span', { className: 'swatch-hot', attrs: { 'aria-hidden': 'true' } }),
  slowestText,
);
slowestLine.hidden = true;
const slowestCaveats = h('ul', { className: 'slowest-caveats muted', testId: 'slowest-phase-caveats' });
slowestCaveats.hidden = true;
const fewValuesNote = h('p', { className: 'muted few-values-note', testId: 'few-values-note' });
fewValuesNote.hidden = true;
// The `*` of a negative +1st output, said under the table in the CLI's words.
const negativeAddedNote = h('p', {
  className: 'muted few-values-note',
  testId: 'negative-added-note',
  text: `* ${NEGATIVE_ADDED_NOTE}`,
});
negativeAddedNote.hidden = true;
// The `†` of a TTFT that waited upstream, said under the table as the CLI's table says it.
// Printed values a row leaves out of its percentiles (a 0.0 time per token), in the CLI's words.
const leftOutNote = h('p', { className: 'muted few-values-note', testId: 'left-out-note' });
leftOutNote.hidden = true;
const ttftWaitedNote = h('p', {
  className: 'muted few-values-note',
  testId: 'ttft-waited-note',
  text: `${TTFT_WAITED_MARK} ${TTFT_WAITED_TEXT}.`,
});
ttftWaitedNote.hidden = true;
const edgeTable = new SummaryTable((stageId) => openPanel(stageId === null ? {} : { stageId }), {
  testId: 'edge-summary',
  rowTestId: 'edge-row',
  label: 'Transfers per edge (TransferEdgeStats and [OmniTiming])',
  count: (n) => ({ text: `n=${n}`, title: `${n} requests with this hand-off` }),
  rowHeader: 'edge',
  // A row opens the requests of the stage the edge feeds (its downstream stage).
  rowAction: (row) =>
    row.stageId === null ? 'open the requests' : `open the requests of stage ${row.stageId}, which this edge feeds`,
});
const edgeSection = h(
  'section',
  { className: 'edge-section', testId: 'edge-section', attrs: { 'aria-label': 'Transfers' } },
  h('h2', {}, 'Transfers ', h('span', { className: 'muted source-note', text: 'per edge, from the log' })),
  h('div', { className: 'table-wrap' }, edgeTable.el),
);
edgeSection.hidden = true;
// Under a phase table, each request's end to end and its time per token where the log prints one
// (the vllm-omni#891 branch's dicts beside its tables), as the CLI's end-to-end table: the phase
// table has no end-to-end row.
const endToEndTable = new SummaryTable(() => openPanel({}), {
  testId: 'e2e-summary',
  rowTestId: 'e2e-row',
  label: 'End to end per request',
  count: (n, row) => ({ text: `n=${n}`, title: row.countTitle?.(n) ?? `${n} requests` }),
  rowHeader: 'per request',
  rowAction: () => 'open the requests',
});
// Its printed values left out of the percentiles (a 0.0 time per token), in the CLI's words.
const endToEndLeftOut = h('p', { className: 'muted few-values-note', testId: 'e2e-left-out-note' });
const endToEndSource = h('span', { className: 'muted source-note', text: 'per request, from the log' });
const endToEndSection = h(
  'section',
  { className: 'e2e-section', testId: 'e2e-section', attrs: { 'aria-label': 'End to end' } },
  h('h2', {}, 'End to end ', endToEndSource),
  h('div', { className: 'table-wrap' }, endToEndTable.el),
  endToEndLeftOut,
);
endToEndSection.hidden = true;
const prometheusSection = new PrometheusSection();
const tableCaptionNote = h('span', { className: 'muted source-note', text: 'per request, per stage' });
const tableCaptionHeading = h('span', { text: 'From the log' });
const tableCaption = h('h2', { className: 'table-caption' }, tableCaptionHeading, ' ', tableCaptionNote);
// A finding that names no request (a cut .gz, boots of different pipelines) opens the view
// unfiltered: filtered by it, the table would be empty.
const findings = new FindingsList((f: Finding) =>
  openPanel({
    ...(f.requestCount === 0 ? {} : { findingCode: f.code }),
    ...(f.stageId === null ? {} : { stageId: f.stageId }),
  }),
);
const tailSection = new TailSection((t) => openPanel({ tail: t }));
// What the server itself printed for the whole run: open, since it may be all the log has.
const runSummary = new RunSummarySection(true);
const tableWrap = h('div', { className: 'table-wrap' }, table.el);
const waiting = h('p', { className: 'muted', testId: 'waiting', text: 'Waiting for the first request…' });
// An ended session with no request: why (the CLI's words), instead of waiting for one.
const noStageStats = h('p', { className: 'notice-banner', role: 'status', testId: 'no-stage-stats' });
noStageStats.hidden = true;
const live = h(
  'div',
  { className: 'live', testId: 'live' },
  header,
  errorBanner,
  tablesNotice,
  overallNotice,
  bootPicker.el,
  serverPicker.el,
  h('div', { className: 'toolbar' }, percentileSwitch.el, trend.el),
  tableCaption,
  tableWrap,
  slowestLine,
  slowestCaveats,
  fewValuesNote,
  negativeAddedNote,
  ttftWaitedNote,
  leftOutNote,
  endToEndSection,
  waiting,
  noStageStats,
  runSummary.el,
  tailSection.el,
  edgeSection,
  findings.el,
  scrapeSection,
  prometheusSection.el,
);
const empty = emptyState(
  (m) => channel.post(m),
  'No session yet. Start the demo server for live numbers in seconds, or capture your own server.',
);
const root = h('main', { id: 'side-panel', className: 'side-panel' }, live, empty);
document.body.append(root);

function showSession(): void {
  live.hidden = session === null;
  empty.hidden = session !== null;
  if (session === null) return;
  setText(sessionTitle, session.title);
  setText(
    sessionMeta,
    `${statusWords(session)} · ${sessionCountText(summary?.requestCount ?? session.requestCount, summary, session)}`,
  );
  const mark = partialMark(session);
  partial.hidden = mark === null;
  setText(partial, mark?.text ?? '');
  setTitle(partial, mark?.title ?? '');
  statusDot.dataset['status'] = session.status;
  sessionTitle.title = session.description;
  errorBanner.hidden = session.lastError === null;
  setText(errorBanner, session.lastError ?? '');
}

/** Everything drawn from a summary, hidden while the shown session has none yet. */
function hideSummaryParts(): void {
  for (const el of [
    tablesNotice,
    overallNotice,
    tableCaption,
    tableWrap,
    slowestLine,
    slowestCaveats,
    fewValuesNote,
    negativeAddedNote,
    ttftWaitedNote,
    leftOutNote,
    endToEndSection,
    edgeSection,
    scrapeSection,
    scrapeRestartNote,
    findings.el,
  ])
    el.hidden = true;
  prometheusSection.update(null);
  tailSection.update(null, stageNames, new Set());
}

function render(): void {
  showSession();
  // A /metrics-only session never gets a request from a log: it says what it has instead.
  const scrapeOnly = session !== null && metricsOnly(session) && (summary === null || summary.requestCount === 0);
  tableCaption.hidden = scrapeOnly;
  tableWrap.hidden = scrapeOnly;
  trend.el.hidden = scrapeOnly;
  setText(
    scrapeNote,
    scrapeOnly ? 'histogram_quantile estimates over everything the server observed since it started.' : SCRAPE_NOTE,
  );
  runSummary.update(runSummaryView(summary?.runSummaries, stageNames));
  bootPicker.update(summary?.boots, session === null ? null : bootOf(state, session.id));
  serverPicker.update(summary?.sessionServers, session === null ? null : serverOf(state, session.id));
  if (summary === null || session === null) {
    waiting.hidden = session === null || scrapeOnly;
    noStageStats.hidden = !scrapeOnly;
    setText(noStageStats, scrapeOnly ? METRICS_ONLY_TEXT : '');
    // Until this session's summary arrives nothing of the last session's shows: not its numbers, notes or findings.
    hideSummaryParts();
    // Until the session's summary arrives: its own trend so far, never the last session's line.
    if (session !== null) {
      const key = trendKey(session.id, bootOf(state, session.id), serverOf(state, session.id));
      trend.update(trendOf(state, key), state.percentile, '', key);
    }
    return;
  }
  // Every request one of the per-request stats of the format before February 2026: the stage
  // time, end to end and transfer totals they print, as the CLI's table, instead of empty phase
  // columns (an orchestrator stats file's requests name no stage: their end to end still shows).
  const legacyOnly = legacyStatsOnly(summary);
  // No stage of any request, but [Overall Summary] tables: their wall times stand in.
  const overall = summary.stages.length === 0 && !legacyOnly ? (summary.overallSummaries ?? null) : null;
  const why = scrapeOnly ? METRICS_ONLY_TEXT : noStageStatsNotice(session, summary);
  // A finished session with no request has no headline latency to wait for: the notice says why.
  trend.el.hidden = why !== null;
  waiting.hidden = summary.stages.length > 0 || legacyOnly || overall !== null || why !== null;
  noStageStats.hidden = why === null;
  setText(noStageStats, why ?? '');
  const missing = summary.tablesMissing;
  tablesNotice.hidden = missing === null;
  setText(tablesNotice, missing?.message ?? '');
  overallNotice.hidden = overall === null;
  setText(
    overallNotice,
    overall === null
      ? ''
      : overallSummaryOnlyMessage(overall, summary.debugLines === true, summary.statsTablesAtDebug === true),
  );
  const timingOnly = missing?.all === true || legacyOnly;
  const caption =
    overall !== null
      ? overallCaption(overall)
      : {
          heading: 'From the log',
          note: legacyOnly
            ? 'stage time, end to end and transfer totals from the per-request stats of vLLM-Omni before February 2026 (request_level_metrics dicts or .stats.jsonl records), no phase split'
            : timingOnly
              ? 'stage time and end to end from [OmniTiming], no phase split'
              : 'per request, per stage',
        };
  setText(tableCaptionHeading, caption.heading);
  setText(tableCaptionNote, caption.note);
  const phaseModel = overall === null && !timingOnly ? summaryModel(summary, state.percentile, stageNames) : null;
  const model =
    overall !== null
      ? overallModel(overall, state.percentile, stageNames)
      : (phaseModel ?? timingModel(summary, state.percentile, stageNames, legacyOnly));
  table.update(model);
  // The phase table has no end-to-end row: the end-to-end table under it has them.
  const endToEnd = model === phaseModel ? endToEndModel(summary, state.percentile) : null;
  endToEndSection.hidden = endToEnd === null;
  if (endToEnd !== null) endToEndTable.update(endToEnd);
  setText(
    endToEndSource,
    endToEnd?.rows.some((r) => r.role === 'server') === true
      ? 'per request, and per server of the merged log (each over its own requests)'
      : 'per request, from the log',
  );
  const endToEndNotes = endToEnd?.leftOut ?? [];
  endToEndLeftOut.hidden = endToEndNotes.length === 0;
  setText(endToEndLeftOut, endToEndNotes.length === 0 ? '' : `Left out of the percentiles: ${endToEndNotes.join(' ')}`);
  slowestLine.hidden = model.slowest === undefined || model.slowest === null;
  setText(slowestText, model.slowest?.text ?? '');
  slowestLine.title = model.slowest?.title ?? '';
  const few = [...model.rows, ...(endToEnd?.rows ?? [])].some((r) =>
    Object.values(r.cells).some((c) => c.fewValues === true),
  );
  fewValuesNote.hidden = !few;
  negativeAddedNote.hidden = model.negativeAdded !== true;
  ttftWaitedNote.hidden = model.ttftWaited !== true;
  const leftOut = model.leftOut ?? [];
  leftOutNote.hidden = leftOut.length === 0;
  setText(leftOutNote, leftOut.length === 0 ? '' : `Left out of the percentiles: ${leftOut.join(' ')}`);
  setText(
    fewValuesNote,
    few
      ? `Dotted: a ${state.percentile} from fewer than ${valuesAbovePercentile(state.percentile)} values, the largest value or an interpolation towards it (hover a cell).`
      : '',
  );
  const caveats = slowestLine.hidden ? [] : (model.slowest?.caveats ?? []);
  slowestCaveats.hidden = caveats.length === 0;
  if (slowestCaveats.textContent !== caveats.join(''))
    slowestCaveats.replaceChildren(...caveats.map((c) => h('li', { text: c })));
  const edges = edgeModel(summary.edges ?? [], state.percentile, stageNames);
  edgeSection.hidden = edges.rows.length === 0;
  if (edges.rows.length > 0) edgeTable.update(edges);
  findings.el.hidden = false;
  findings.update(
    missing === null ? summary.findings : summary.findings.filter((f) => f.code !== 'stage-tables-missing'),
    missing !== null,
  );
  const oneOutput = new Set(
    summary.stages
      .filter((s) => s.replicaId === null && s.oneOutputRequests > 0 && s.stageId !== null)
      .map((s) => String(s.stageId)),
  );
  const scrape = scrapeModel(summary.histograms, state.percentile, stageNames, oneOutput);
  scrapeSection.hidden = scrape.rows.length === 0;
  const restart = summary.scrapeRestart ?? null;
  scrapeRestartNote.hidden = restart === null;
  setText(
    scrapeRestartNote,
    restart === null
      ? ''
      : `The server restarted at ${formatClock(restart.atMs, false)}: counts since then. ${restartEvidence(restart)}, so these histograms cover only the time since the restart.`,
  );
  if (scrape.rows.length > 0) scrapeTable.update(scrape);
  prometheusSection.update(summary.prometheus === null ? null : prometheusModel(summary.prometheus, stageNames));
  const key = trendKey(session.id, summary.boots?.selected ?? null, summary.sessionServers?.selected ?? null);
  // Named with the stage roles as they are now (they come with the session, not the summary).
  trend.update(trendOf(state, key), state.percentile, trendLabel(headline(summary, stageNames), state.percentile), key);
  tailSection.update(tail, stageNames, oneOutputStages(summary.stages));
}

/** What showed the restart: a count that went down, or a series created anew (its count may have grown past the old one). */
function restartEvidence(restart: ScrapeRestart): string {
  const counts = `${formatCount(restart.before)} to ${formatCount(restart.after)}`;
  if (restart.createdBefore === undefined || restart.createdAfter === undefined)
    return `${restart.series} went from ${counts}`;
  return `${restart.series} was created again at ${formatClock(restart.createdAfter * 1000, false)} (before: ${formatClock(restart.createdBefore * 1000, false)}), its count from ${counts} across the restart`;
}

function onMessage(msg: HostToWebview): void {
  switch (msg.type) {
    case 'session': {
      const changed = msg.session?.id !== session?.id;
      session = msg.session;
      stageNames = msg.stageNames;
      if (changed) {
        summary = null;
        tail = null;
        // A boot picked in this session before (a reload, or the session shown again): its numbers, not every boot's.
        const boot = msg.session === null ? null : bootOf(state, msg.session.id);
        if (msg.session !== null && boot !== null)
          channel.post({ type: 'selectBoot', sessionId: msg.session.id, boot });
        const server = msg.session === null ? null : serverOf(state, msg.session.id);
        if (msg.session !== null && server !== null)
          channel.post({ type: 'selectServer', sessionId: msg.session.id, server });
      }
      render();
      // Another session starts at its top (its name, its headline), not where the last one was read.
      if (changed) window.scrollTo(0, 0);
      break;
    }
    case 'summary': {
      // Only the shown session's summary (none before a session is known): its point goes to its own trend.
      if (session === null || msg.summary.sessionId !== session.id) return;
      // The session's first summary is of a server the page kept no pick of (its stored state
      // lost, the host's kept): the picker shows that server, whose numbers these are.
      const hostServer = msg.summary.sessionServers?.selected ?? null;
      if (summary === null && hostServer !== null && serverOf(state, session.id) === null)
        save({ server: { sessionId: session.id, server: hostServer } });
      summary = msg.summary;
      const head = headline(msg.summary);
      if (head !== null)
        save(
          addTrendPoint(
            state,
            trendKey(session.id, msg.summary.boots?.selected ?? null, msg.summary.sessionServers?.selected ?? null),
            {
              n: msg.summary.requestCount,
              p50: head.p50,
              p90: head.p90,
              p99: head.p99,
            },
          ),
        );
      render();
      break;
    }
    case 'tail':
      if (session === null || msg.tail.sessionId !== session.id) return;
      tail = msg.tail;
      render();
      break;
    case 'error':
      errorBanner.hidden = false;
      setText(errorBanner, msg.message);
      break;
    default:
      break;
  }
}

channel.onMessage(onMessage);
onThemeChange(() => {
  trend.draw();
  prometheusSection.draw();
});
render();
channel.post({ type: 'ready' });
