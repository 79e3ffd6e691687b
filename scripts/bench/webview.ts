// Webview benchmark: the built latency panel in headless Chromium over a 100k-request
// session (answered by the fake host of the browser tests).
//  - first view: navigation start -> the first frame after the first row of real data is
//    in the DOM (HTML, bundle, ready -> session/summary -> first page -> render -> paint)
//  - scrolling: the table is scrolled continuously for ~3 s, one step per animation
//    frame; frames are counted with requestAnimationFrame in the page.
//  - main-thread CPU per frame: a second, traced run of each pace sums the CPU time
//    (trace `tdur`) of the page's main-thread tasks. Frame rates depend on what else the
//    machine runs; this figure much less, so it is the one to compare builds by.
// Run alone: node --import tsx scripts/bench/webview.ts [requests] (after npm run build).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { WebviewHarness } from '../../test/fixtures/webview/browserHarness';
import { syntheticSession } from '../../test/fixtures/webview/syntheticSession';

export interface ScrollFigures {
  readonly pxPerFrame: number;
  /** 'live': rows are fetched as they come into view; 'fetched': every row passed already had its data. */
  readonly rows: 'live' | 'fetched';
  readonly seconds: number;
  readonly frames: number;
  readonly fps: number;
  readonly p95FrameMs: number;
  readonly worstFrameMs: number;
  /** Frames longer than 1.5 × 16.7 ms. */
  readonly longFrames: number;
  readonly rowsScrolled: number;
  readonly maxRowsInDom: number;
  /** Share of the rows on screen that were still being fetched ("…"): at a drag pace most are. */
  readonly loadingShare: number;
  /** CPU time of the page's main thread per frame (traced run), ms. */
  readonly mainCpuMsPerFrame: number;
}

export interface WebviewBenchResult {
  readonly requests: number;
  readonly firstViewMs: number;
  readonly firstRowMs: number;
  readonly scroll: readonly ScrollFigures[];
}

/** Records when the first data row appears, and the frame after it. */
const FIRST_VIEW_PROBE = `
new MutationObserver(function (_, observer) {
  if (document.querySelector('[data-testid="request-id"][data-state="text"]') === null) return;
  observer.disconnect();
  window.__firstRow = performance.now();
  requestAnimationFrame(function () { window.__firstView = performance.now(); });
}).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
`;

/** Steps the table through its first `rows` rows, slowly enough that each is fetched. */
function fetchProbe(rows: number): string {
  return `(async () => {
    const scroll = document.querySelector('[data-testid="request-table-scroll"]');
    for (let top = 0; top < ${rows * 22}; top += 40 * 22) { scroll.scrollTop = top; await new Promise((r) => setTimeout(r, 40)); }
  })()`;
}

/**
 * Scrolls at `pxPerFrame` for `durationMs`. With `fetchedRows` (after fetchProbe), the run
 * stops before their end: a drag over rows that all have their data, the most rendering
 * work a frame can get.
 */
function scrollProbe(pxPerFrame: number, durationMs: number, fetchedRows = 0): string {
  return `(async () => {
    const scroll = document.querySelector('[data-testid="request-table-scroll"]');
    const stopAt = ${fetchedRows > 0 ? (fetchedRows - 100) * 22 : 'Infinity'};
    scroll.scrollTop = 0;
    await new Promise((r) => setTimeout(r, 300));
    const deltas = [];
    let maxRows = 0;
    let shown = 0;
    let loading = 0;
    const start = await new Promise((r) => requestAnimationFrame(r));
    let last = start;
    await new Promise((resolve) => {
      function step(t) {
        deltas.push(t - last);
        last = t;
        maxRows = Math.max(maxRows, document.querySelectorAll('[data-testid="request-row"]').length);
        shown += document.querySelectorAll('[data-testid="request-row"]:not([hidden])').length;
        loading += document.querySelectorAll('[data-testid="request-row"][data-pending="true"]:not([hidden])').length;
        scroll.scrollTop += ${pxPerFrame};
        if (t - start < ${durationMs} && scroll.scrollTop < stopAt) requestAnimationFrame(step); else resolve();
      }
      requestAnimationFrame(step);
    });
    return { deltas: deltas.slice(1), elapsed: last - start, scrollTop: scroll.scrollTop, maxRows, loadingShare: shown === 0 ? 0 : loading / shown };
  })()`;
}

interface TraceEvent {
  readonly name: string;
  readonly ph: string;
  readonly pid: number;
  readonly tid: number;
  readonly ts: number;
  readonly dur?: number;
  readonly tdur?: number;
  readonly args?: { readonly name?: string };
}

/** CPU ms of the busiest renderer main thread's top-level tasks in a trace. */
export function mainThreadCpuMs(events: readonly TraceEvent[]): number {
  const mains = new Set(
    events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`),
  );
  const byThread = new Map<string, TraceEvent[]>();
  for (const e of events) {
    const key = `${e.pid}:${e.tid}`;
    if (e.ph !== 'X' || e.name !== 'RunTask' || !mains.has(key)) continue;
    let list = byThread.get(key);
    if (list === undefined) byThread.set(key, (list = []));
    list.push(e);
  }
  let busiest = 0;
  for (const list of byThread.values()) {
    list.sort((a, b) => a.ts - b.ts);
    let end = -Infinity;
    let cpu = 0;
    for (const e of list) {
      if (e.ts < end) continue; // nested in the previous task
      end = e.ts + (e.dur ?? 0);
      cpu += e.tdur ?? e.dur ?? 0;
    }
    busiest = Math.max(busiest, cpu);
  }
  return busiest / 1000;
}

function figures(
  pxPerFrame: number,
  rows: ScrollFigures['rows'],
  raw: { deltas: number[]; elapsed: number; scrollTop: number; maxRows: number; loadingShare: number },
  mainCpuMsPerFrame: number,
): ScrollFigures {
  const sorted = [...raw.deltas].sort((a, b) => a - b);
  const p95 = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] ?? 0;
  return {
    pxPerFrame,
    rows,
    seconds: raw.elapsed / 1000,
    frames: raw.deltas.length,
    fps: raw.deltas.length / (raw.deltas.reduce((a, b) => a + b, 0) / 1000),
    p95FrameMs: p95,
    worstFrameMs: sorted[sorted.length - 1] ?? 0,
    longFrames: raw.deltas.filter((d) => d > 25).length,
    rowsScrolled: Math.round(raw.scrollTop / 22),
    maxRowsInDom: raw.maxRows,
    loadingShare: raw.loadingShare,
    mainCpuMsPerFrame,
  };
}

export async function benchWebview(requests = 100_000, scrollMs = 3000): Promise<WebviewBenchResult> {
  const data = syntheticSession(requests);
  const harness = await WebviewHarness.start(data);
  try {
    const view = await harness.open('latencyPanel', { width: 1280, height: 800, initScript: FIRST_VIEW_PROBE });
    const page = view.page;
    const deadline = Date.now() + 30_000;
    let firstView: number | null = null;
    while (firstView === null && Date.now() < deadline) {
      firstView = (await page.evaluate('window.__firstView ?? null')) as number | null;
      if (firstView === null) await new Promise((r) => setTimeout(r, 20));
    }
    if (firstView === null) throw new Error('the first view never rendered');
    const firstRow = (await page.evaluate('window.__firstRow')) as number;
    const scroll: ScrollFigures[] = [];
    const browser = page.context().browser();
    const traceFile = path.join(os.tmpdir(), `stage-lens-webview-bench-${process.pid}.json`);
    // A trackpad-like pace (5 rows a frame) and a scrollbar drag (40 rows a frame); the drag
    // again over the first 3,000 rows once they are fetched (no "…" rows: every cell written).
    const runs: readonly { px: number; fetchedRows: number }[] = [
      { px: 110, fetchedRows: 0 },
      { px: 880, fetchedRows: 0 },
      { px: 880, fetchedRows: 3000 },
    ];
    for (const { px, fetchedRows } of runs) {
      if (fetchedRows > 0) await page.evaluate(fetchProbe(fetchedRows));
      const raw = (await page.evaluate(scrollProbe(px, scrollMs, fetchedRows))) as Parameters<typeof figures>[2];
      let cpu = Number.NaN;
      if (browser !== null) {
        await browser.startTracing(page, { path: traceFile, categories: ['disabled-by-default-devtools.timeline'] });
        const traced = (await page.evaluate(scrollProbe(px, Math.min(scrollMs, 1500), fetchedRows))) as Parameters<
          typeof figures
        >[2];
        await browser.stopTracing();
        const events = (JSON.parse(fs.readFileSync(traceFile, 'utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
        fs.rmSync(traceFile, { force: true });
        cpu = mainThreadCpuMs(events) / Math.max(1, traced.deltas.length);
      }
      scroll.push(figures(px, fetchedRows > 0 ? 'fetched' : 'live', raw, cpu));
    }
    await view.close();
    return { requests, firstViewMs: firstView, firstRowMs: firstRow, scroll };
  } finally {
    await harness.close();
  }
}

export function formatWebviewBench(r: WebviewBenchResult): string {
  const lines = [
    `webview: latency panel, ${r.requests.toLocaleString('en-US')} requests, headless Chromium`,
    `  first view: ${r.firstViewMs.toFixed(0)} ms (first row in the DOM at ${r.firstRowMs.toFixed(0)} ms; target < 1000 ms)`,
  ];
  for (const s of r.scroll) {
    lines.push(
      `  scrolling ${s.pxPerFrame} px/frame${s.rows === 'fetched' ? ' over fetched rows' : ''} for ${s.seconds.toFixed(1)} s: ${s.fps.toFixed(1)} fps (${s.frames} frames; p95 ${s.p95FrameMs.toFixed(1)} ms, worst ${s.worstFrameMs.toFixed(1)} ms, ${s.longFrames} frames > 25 ms; main thread ${s.mainCpuMsPerFrame.toFixed(1)} ms CPU per frame; ${s.rowsScrolled.toLocaleString('en-US')} rows passed, at most ${s.maxRowsInDom} rows in the DOM, ${(s.loadingShare * 100).toFixed(0)}% of the rows shown still loading; target 60 fps)`,
    );
  }
  return lines.join('\n');
}

if (require.main === module) {
  const n = Number(process.argv[2] ?? 100_000);
  benchWebview(Number.isFinite(n) && n > 0 ? n : 100_000)
    .then((r) => console.log(formatWebviewBench(r)))
    .catch((err: unknown) => {
      console.error(err);
      process.exitCode = 1;
    });
}
