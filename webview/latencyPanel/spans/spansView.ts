// Timeline of many requests (own canvas: up to 100k marks per frame with a custom
// zoom/pan; drawing them as batched rects is faster than a general chart library and
// needs no per-point objects). Wheel zooms at the cursor, drag pans, +/- and arrows do
// the same from the keyboard, 0 resets; click a request to open its timeline.
import {
  PHASE_COLOUR_REASON,
  rankedPhaseLabel,
  SLOWEST_PHASE_RULE,
  SLOWEST_PHASE_TEXT,
  SLOWEST_STAGE_FIELD,
  SLOWEST_STAGE_RULE,
  SLOWEST_STAGE_TEXT,
} from '../../../server/shared';
import type { RequestSpans } from '../../../server/protocol';
import type { DurationAxis } from '../../shared/axis';
import { durationAxis, LABEL_EDGE_PX, placeTickLabels, timePlotX, timeTickStep, timeTicks } from '../../shared/axis';
import { fitCanvas, observeSize } from '../../shared/canvas';
import { button, h, setText } from '../../shared/dom';
import { formatCount, formatDurationMs, formatLogClock, timeTickText } from '../../shared/format';
import { stageLabel } from '../../shared/labels';
import { spansScopeText } from './spansScope';
import type { Palette } from '../../shared/theme';
import { readPalette } from '../../shared/theme';
import { Tooltip } from '../../shared/tooltip';
import type { PlotBox, SpanColour, SpanIndex, TimeView } from './spansLayout';
import {
  buildSpanIndex,
  clampView,
  fullView,
  isVisible,
  keptView,
  panView,
  spanAt,
  timeAt,
  visibleMaxE2e,
  visibleSlice,
  xOf,
  yOf,
  zoomView,
} from './spansLayout';

const HEIGHT = 360;
/** Left and right margins are timePlotX's, the Over Time chart's above. */
const MARGIN = { top: 10, bottom: 24 };
/** Above this many requests in view, only end points are drawn (lines would be a solid block). */
const LINE_LIMIT = 20_000;

/** What the colours compare, in the legend's words: the rule the server chose (slowest.ts). */
function colourRuleText(spans: RequestSpans): { text: string; title: string } {
  return spans.colourBy === 'slowestPhase'
    ? {
        text: `${SLOWEST_PHASE_TEXT} within the request (stages ran alongside, so not by ${SLOWEST_STAGE_FIELD})`,
        title: `${SLOWEST_PHASE_TEXT}: ${SLOWEST_PHASE_RULE}. Not the ${SLOWEST_STAGE_TEXT}: ${PHASE_COLOUR_REASON}.`,
      }
    : { text: SLOWEST_STAGE_TEXT, title: `${SLOWEST_STAGE_TEXT}: ${SLOWEST_STAGE_RULE}` };
}

/** A request with nothing to colour it by (drawn in the muted colour), in the tooltip's and legend's words. */
const UNKNOWN_PHASE_TEXT = 'unknown (no phase measured above 0)';
const UNKNOWN_STAGE_TEXT = `unknown (no ${SLOWEST_STAGE_FIELD})`;

function colourLabel(c: SpanColour, names: Readonly<Record<string, string>>): string {
  const stage = stageLabel(c.stageKey, names);
  return c.phase === null ? stage : `${stage} ${rankedPhaseLabel(c.phase)}`;
}

export class SpansView {
  readonly el: HTMLElement;
  private readonly canvas = h('canvas', { testId: 'spans-canvas', attrs: { tabindex: '0', role: 'img' } });
  private readonly wrap = h('div', { className: 'spans-wrap' }, this.canvas);
  private readonly status = h('span', { className: 'muted', testId: 'spans-status', attrs: { 'aria-live': 'polite' } });
  private readonly legend = h('div', { className: 'legend', testId: 'spans-legend' });
  /** The scope the requests drawn are of (the server's answer says it). */
  private readonly scopeText = h('p', { className: 'muted spans-scope', testId: 'spans-scope' });
  private readonly tooltip = new Tooltip();
  private spans: RequestSpans | null = null;
  private index: SpanIndex | null = null;
  private view: TimeView | null = null;
  private stageNames: Readonly<Record<string, string>> = {};
  private width = 600;
  private frame = 0;
  private yMax = 1;
  /** The span the Over Time chart above draws (its rolling points): the full view covers it too. */
  private extent: TimeView | null = null;
  private drag: { x: number; view: TimeView; moved: boolean } | null = null;
  private readonly reset = button('Reset Zoom', { className: 'secondary', testId: 'spans-reset' }, () =>
    this.setView(null),
  );
  private readonly help = h('span', {
    className: 'muted',
    text: 'Wheel or +/− zoom · drag or ←/→ pan · 0 resets · click a request to open it',
  });

  constructor(
    private readonly onOpen: (requestId: string) => void,
    private readonly onViewChange: (view: TimeView | null) => void,
    /** Each frame's view, for the Over Time chart above to draw on the same time axis. */
    private readonly onDrawn: (view: TimeView) => void = () => undefined,
  ) {
    this.el = h(
      'div',
      { className: 'spans' },
      this.scopeText,
      h('div', { className: 'spans-toolbar' }, this.reset, this.status, this.help),
      this.wrap,
      this.legend,
    );
    this.canvas.setAttribute('aria-label', this.ariaLabel(SLOWEST_STAGE_TEXT));
    observeSize(this.wrap, (w) => {
      // 0 while hidden (no requests): the last real width is kept for when it shows again.
      if (w > 0 && Math.abs(w - this.width) >= 1) {
        this.width = w;
        this.schedule();
      }
    });
    this.canvas.addEventListener('wheel', (ev) => this.onWheel(ev), { passive: false });
    this.canvas.addEventListener('pointerdown', (ev) => this.onPointerDown(ev));
    this.canvas.addEventListener('pointermove', (ev) => this.onPointerMove(ev));
    this.canvas.addEventListener('pointerup', (ev) => this.onPointerUp(ev));
    this.canvas.addEventListener('pointerleave', () => this.tooltip.hide());
    this.canvas.addEventListener('keydown', (ev) => this.onKey(ev));
  }

  private ariaLabel(rule: string): string {
    return `Requests over wall time: each request a line from its start to its end at the height of its end-to-end latency, coloured by its ${rule}. Plus and minus zoom, arrows pan, 0 resets.`;
  }

  setStageNames(names: Readonly<Record<string, string>>): void {
    this.stageNames = names;
    this.schedule();
  }

  setSpans(spans: RequestSpans, restoreView: TimeView | null): void {
    const first = this.spans === null;
    this.spans = spans;
    this.index = buildSpanIndex(spans);
    setText(this.scopeText, spansScopeText(spans));
    this.canvas.dataset['count'] = String(spans.requestIds.length);
    // Keep the user's zoom across live updates; follow the whole session otherwise.
    this.view = keptView(first ? restoreView : this.view, this.index, this.extent);
    this.renderLegend();
    this.schedule();
  }

  /** The Over Time chart's own span (null: none): the whole-session view takes it in. */
  setExtent(extent: TimeView | null): void {
    if (extent?.t0 === this.extent?.t0 && extent?.t1 === this.extent?.t1) return;
    this.extent = extent;
    if (this.index !== null) this.view = keptView(this.view, this.index, extent);
    this.schedule();
  }

  /**
   * Another session is shown: a zoom belongs to the session it was made on, so the next
   * session's spans start from its whole view (or the zoom stored for that session).
   */
  forget(): void {
    this.spans = null;
    this.index = null;
    setText(this.scopeText, '');
    this.view = null;
    this.extent = null;
    this.drag = null;
    this.tooltip.hide();
    this.schedule();
  }

  get loaded(): boolean {
    return this.spans !== null;
  }

  get currentView(): TimeView | null {
    return this.view;
  }

  redraw(): void {
    this.schedule();
  }

  private box(): PlotBox {
    const { x0, x1 } = timePlotX(this.width);
    return {
      left: x0,
      top: MARGIN.top,
      width: x1 - x0,
      height: HEIGHT - MARGIN.top - MARGIN.bottom,
    };
  }

  private effectiveView(): TimeView {
    return this.view ?? fullView(this.index as SpanIndex, this.extent);
  }

  private setView(view: TimeView | null): void {
    this.view = view === null || this.index === null ? null : clampView(view, this.index, this.extent);
    this.onViewChange(this.view);
    this.schedule();
  }

  private schedule(): void {
    if (this.frame !== 0) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.draw();
    });
  }

  private draw(): void {
    const canvasWidth = Math.max(200, this.width);
    const ctx = fitCanvas(this.canvas, canvasWidth, HEIGHT);
    const palette = readPalette();
    const index = this.index;
    // No requests: the words alone, not an empty plot with zoom controls.
    const none = this.spans !== null && index !== null && index.count === 0;
    this.wrap.hidden = none;
    this.legend.hidden = none;
    this.reset.hidden = none;
    this.help.hidden = none;
    if (index === null || index.count === 0) {
      setText(this.status, this.spans === null ? 'Loading…' : 'No requests yet.');
      return;
    }
    const view = this.effectiveView();
    const box = this.box();
    const yAxis = durationAxis(visibleMaxE2e(index, view), 4);
    this.yMax = yAxis.max;
    drawAxes(ctx, view, box, yAxis, palette, canvasWidth);
    const { from, to } = visibleSlice(index, view);
    let shown = 0;
    let cold = 0;
    const lines = to - from <= LINE_LIMIT;
    const colors = index.colours.map((_, i) => palette.series[i % palette.series.length] as string);
    // One path per colour: a handful of fill() calls however many requests.
    for (let s = -1; s < index.colours.length; s++) {
      ctx.beginPath();
      const linePath = new Path2D();
      for (let i = from; i < to; i++) {
        // No end-to-end time: no height to draw it at (never on the baseline as if 0 ms).
        if (index.colour[i] !== s || !isVisible(index, i, view) || Number.isNaN(index.e2e[i])) continue;
        const x1 = xOf(view, box, index.end[i] as number);
        const y = yOf(box, this.yMax, index.e2e[i] as number);
        ctx.rect(x1 - 1.5, y - 1.5, 3, 3);
        if (lines) {
          const x0 = Math.max(box.left, xOf(view, box, index.start[i] as number));
          linePath.moveTo(x0, y + 0.5);
          linePath.lineTo(x1, y + 0.5);
        }
      }
      const color = s < 0 ? palette.muted : (colors[s] as string);
      ctx.fillStyle = color;
      ctx.fill();
      if (lines) {
        ctx.strokeStyle = color;
        ctx.globalAlpha = 0.35;
        ctx.lineWidth = 1;
        ctx.stroke(linePath);
        ctx.globalAlpha = 1;
      }
    }
    // Cold requests: a ring, drawn last so that they stay visible.
    ctx.strokeStyle = palette.red;
    ctx.lineWidth = 1.5;
    for (let i = from; i < to; i++) {
      if (!isVisible(index, i, view)) continue;
      shown += 1;
      if (index.cold[i] !== 1 || Number.isNaN(index.e2e[i])) continue;
      cold += 1;
      ctx.beginPath();
      ctx.arc(xOf(view, box, index.end[i] as number), yOf(box, this.yMax, index.e2e[i] as number), 5, 0, Math.PI * 2);
      ctx.stroke();
    }
    const noE2e =
      index.withoutE2e > 0 ? ` · ${formatCount(index.withoutE2e)} without an end-to-end time (not drawn)` : '';
    setText(
      this.status,
      `${formatCount(shown)} of ${formatCount(index.count)} requests in view · ${formatCount(cold)} cold${noE2e}`,
    );
    this.canvas.dataset['visible'] = String(shown);
    this.canvas.dataset['t0'] = String(view.t0);
    this.canvas.dataset['t1'] = String(view.t1);
    this.canvas.dataset['x0'] = String(box.left);
    this.canvas.dataset['x1'] = String(box.left + box.width);
    this.onDrawn(view);
  }

  private renderLegend(): void {
    const index = this.index;
    const spans = this.spans;
    if (index === null || spans === null) return;
    const palette = readPalette();
    const items = index.colours.map((c, i) => {
      const sw = h('span', { className: 'swatch', attrs: { 'aria-hidden': 'true' } });
      sw.style.background = palette.series[i % palette.series.length] as string;
      return h(
        'span',
        { className: 'legend-item', dataset: { stageKey: c.stageKey, phase: c.phase ?? '' } },
        sw,
        colourLabel(c, this.stageNames),
      );
    });
    // What the colour compares, named once (slowest.ts): the same words as the tooltip.
    const rule = colourRuleText(spans);
    this.canvas.setAttribute('aria-label', this.ariaLabel(rule.text));
    items.unshift(
      h(
        'span',
        { className: 'legend-item legend-title', title: rule.title, testId: 'spans-legend-title' },
        `Colour: ${rule.text}:`,
      ),
    );
    // Requests with no slowest stage or phase (an INFO-level log has no phases) are drawn muted:
    // named, so a legend is never just its title.
    if (index.colour.some((c) => c < 0)) {
      const sw = h('span', { className: 'swatch', attrs: { 'aria-hidden': 'true' } });
      sw.style.background = palette.muted;
      items.push(
        h(
          'span',
          { className: 'legend-item', testId: 'spans-legend-unknown' },
          sw,
          spans.colourBy === 'slowestPhase' ? UNKNOWN_PHASE_TEXT : UNKNOWN_STAGE_TEXT,
        ),
      );
    }
    items.push(
      h(
        'span',
        { className: 'legend-item' },
        h('span', { className: 'swatch ring', attrs: { 'aria-hidden': 'true' } }),
        'cold (first request after a server start)',
      ),
    );
    this.legend.replaceChildren(h('div', { className: 'legend-row' }, items));
  }

  // ------------------------------------------------------------ interaction

  private localX(ev: MouseEvent): number {
    return ev.clientX - this.canvas.getBoundingClientRect().left;
  }

  private onWheel(ev: WheelEvent): void {
    if (this.index === null) return;
    ev.preventDefault();
    const view = this.effectiveView();
    const anchor = timeAt(view, this.box(), this.localX(ev));
    this.setView(zoomView(view, Math.pow(1.0015, ev.deltaY), anchor, this.index, this.extent));
  }

  private onPointerDown(ev: PointerEvent): void {
    if (this.index === null) return;
    this.canvas.setPointerCapture(ev.pointerId);
    this.drag = { x: ev.clientX, view: this.effectiveView(), moved: false };
  }

  private onPointerMove(ev: PointerEvent): void {
    if (this.index === null) return;
    if (this.drag !== null) {
      const dx = ev.clientX - this.drag.x;
      if (Math.abs(dx) > 3) this.drag.moved = true;
      if (this.drag.moved) {
        const dt = (-dx / this.box().width) * (this.drag.view.t1 - this.drag.view.t0);
        this.setView(panView(this.drag.view, dt, this.index, this.extent));
      }
      return;
    }
    const rect = this.canvas.getBoundingClientRect();
    const i = spanAt(
      this.index,
      this.effectiveView(),
      this.box(),
      this.yMax,
      ev.clientX - rect.left,
      ev.clientY - rect.top,
    );
    if (i === null || this.spans === null) {
      this.tooltip.hide();
      return;
    }
    const src = this.index.source[i] as number;
    const e2e = this.index.e2e[i] as number;
    this.tooltip.show(
      `${this.spans.requestIds[src] ?? ''}\nended ${formatLogClock(this.index.end[i] as number, false)} · e2e ${Number.isNaN(e2e) ? 'not printed' : formatDurationMs(e2e)}\n${this.slowestText(src)}${this.index.cold[i] === 1 ? '\ncold: first request after a server start' : ''}`,
      ev.clientX,
      ev.clientY,
    );
  }

  /** The tooltip's line on what colours request `src`. */
  private slowestText(src: number): string {
    const spans = this.spans as RequestSpans;
    if (spans.colourBy === 'slowestPhase') {
      const p = spans.slowestPhase[src] ?? null;
      return `${SLOWEST_PHASE_TEXT}: ${p === null ? UNKNOWN_PHASE_TEXT : `${colourLabel(p, this.stageNames)} ${formatDurationMs(p.ms)}`}`;
    }
    const slow = spans.slowestStage[src] ?? null;
    return `${SLOWEST_STAGE_TEXT}: ${slow === null ? UNKNOWN_STAGE_TEXT : stageLabel(slow, this.stageNames)}`;
  }

  private onPointerUp(ev: PointerEvent): void {
    const drag = this.drag;
    this.drag = null;
    if (drag === null || drag.moved || this.index === null || this.spans === null) return;
    const rect = this.canvas.getBoundingClientRect();
    const i = spanAt(
      this.index,
      this.effectiveView(),
      this.box(),
      this.yMax,
      ev.clientX - rect.left,
      ev.clientY - rect.top,
    );
    if (i !== null) this.onOpen(this.spans.requestIds[this.index.source[i] as number] ?? '');
  }

  private onKey(ev: KeyboardEvent): void {
    if (this.index === null) return;
    const view = this.effectiveView();
    const span = view.t1 - view.t0;
    const mid = (view.t0 + view.t1) / 2;
    let next: TimeView | null | undefined;
    const x = this.extent;
    if (ev.key === '+' || ev.key === '=') next = zoomView(view, 0.8, mid, this.index, x);
    else if (ev.key === '-' || ev.key === '_') next = zoomView(view, 1.25, mid, this.index, x);
    else if (ev.key === 'ArrowLeft') next = panView(view, -span * 0.1, this.index, x);
    else if (ev.key === 'ArrowRight') next = panView(view, span * 0.1, this.index, x);
    else if (ev.key === '0' || ev.key === 'Home') next = null;
    if (next === undefined) return;
    ev.preventDefault();
    this.setView(next);
  }
}

function drawAxes(
  ctx: CanvasRenderingContext2D,
  view: TimeView,
  box: PlotBox,
  yAxis: DurationAxis,
  palette: Palette,
  canvasWidth: number,
): void {
  ctx.font = palette.font;
  ctx.lineWidth = 1;
  ctx.fillStyle = palette.muted;
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  for (const v of yAxis.ticks) {
    const y = Math.round(yOf(box, yAxis.max, v)) + 0.5;
    ctx.strokeStyle = palette.grid;
    ctx.globalAlpha = 0.5;
    ctx.beginPath();
    ctx.moveTo(box.left, y);
    ctx.lineTo(box.left + box.width, y);
    ctx.stroke();
    ctx.globalAlpha = 1;
    ctx.fillText(yAxis.format(v), box.left - 4, y);
  }
  ctx.textAlign = 'left';
  ctx.textBaseline = 'top';
  // Log clock: ticks on the printed minutes, labelled as printed, as precise as their spacing (as the Over Time chart's).
  const count = Math.max(2, Math.floor(box.width / 110));
  const step = timeTickStep(view.t0, view.t1, count);
  const labels = timeTicks(view.t0, view.t1, count, false).map((t) => {
    const text = timeTickText(t, step);
    return { text, x: xOf(view, box, t), width: ctx.measureText(text).width };
  });
  const lefts = placeTickLabels(labels, LABEL_EDGE_PX, canvasWidth - LABEL_EDGE_PX);
  labels.forEach(({ text }, i) => {
    const left = lefts[i];
    if (left !== null && left !== undefined) ctx.fillText(text, left, box.top + box.height + 6);
  });
  ctx.save();
  ctx.translate(10, box.top + box.height / 2);
  ctx.rotate(-Math.PI / 2);
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  ctx.fillText('e2e', 0, 0);
  ctx.restore();
  ctx.textAlign = 'left';
}
