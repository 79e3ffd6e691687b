// Webview benchmark: the built latency panel in headless Chromium over a 100k-request
// session (answered by the fake host of the browser tests).
//  - first view: navigation start -> the first frame after the first row of real data is
//    in the DOM (HTML, bundle, ready -> session/summary -> first page -> render -> paint)
//  - scrolling: the table is scrolled continuously for ~3 s, one step per animation
//    frame; frames are counted with requestAnimationFrame in the page.
// Run alone: node --import tsx scripts/bench/webview.ts [requests] (after npm run build).
import { WebviewHarness } from '../../test/fixtures/webview/browserHarness';
import { syntheticSession } from '../../test/fixtures/webview/syntheticSession';

export interface ScrollFigures {
  readonly pxPerFrame: number;
  readonly seconds: number;
  readonly frames: number;
  readonly fps: number;
  readonly p95FrameMs: number;
  readonly worstFrameMs: number;
  /** Frames longer than 1.5 × 16.7 ms. */
  readonly longFrames: number;
  readonly rowsScrolled: number;
  readonly maxRowsInDom: number;
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
  if (document.querySelector('[data-testid="request-row"] .id-cell[data-state="text"]') === null) return;
  observer.disconnect();
  window.__firstRow = performance.now();
  requestAnimationFrame(function () { window.__firstView = performance.now(); });
}).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
`;

function scrollProbe(pxPerFrame: number, durationMs: number): string {
  return `(async () => {
    const scroll = document.querySelector('[data-testid="request-table-scroll"]');
    scroll.scrollTop = 0;
    await new Promise((r) => setTimeout(r, 300));
    const deltas = [];
    let maxRows = 0;
    const start = await new Promise((r) => requestAnimationFrame(r));
    let last = start;
    await new Promise((resolve) => {
      function step(t) {
        deltas.push(t - last);
        last = t;
        maxRows = Math.max(maxRows, document.querySelectorAll('[data-testid="request-row"]').length);
        scroll.scrollTop += ${pxPerFrame};
        if (t - start < ${durationMs}) requestAnimationFrame(step); else resolve();
      }
      requestAnimationFrame(step);
    });
    return { deltas: deltas.slice(1), elapsed: last - start, scrollTop: scroll.scrollTop, maxRows };
  })()`;
}

function figures(pxPerFrame: number, raw: { deltas: number[]; elapsed: number; scrollTop: number; maxRows: number }): ScrollFigures {
  const sorted = [...raw.deltas].sort((a, b) => a - b);
  const p95 = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] ?? 0;
  return {
    pxPerFrame,
    seconds: raw.elapsed / 1000,
    frames: raw.deltas.length,
    fps: raw.deltas.length / (raw.deltas.reduce((a, b) => a + b, 0) / 1000),
    p95FrameMs: p95,
    worstFrameMs: sorted[sorted.length - 1] ?? 0,
    longFrames: raw.deltas.filter((d) => d > 25).length,
    rowsScrolled: Math.round(raw.scrollTop / 22),
    maxRowsInDom: raw.maxRows,
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
    // A trackpad-like pace (5 rows a frame) and a scrollbar drag (40 rows a frame).
    for (const px of [110, 880]) {
      scroll.push(figures(px, (await page.evaluate(scrollProbe(px, scrollMs))) as Parameters<typeof figures>[1]));
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
      `  scrolling ${s.pxPerFrame} px/frame for ${s.seconds.toFixed(1)} s: ${s.fps.toFixed(1)} fps (${s.frames} frames; p95 ${s.p95FrameMs.toFixed(1)} ms, worst ${s.worstFrameMs.toFixed(1)} ms, ${s.longFrames} frames > 25 ms; ${s.rowsScrolled.toLocaleString('en-US')} rows passed, at most ${s.maxRowsInDom} rows in the DOM; target 60 fps)`,
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
