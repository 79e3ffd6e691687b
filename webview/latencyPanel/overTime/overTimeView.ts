// Over Time, as vLLM's Grafana dashboards show it: rolling p50/p90/p99 of a target
// (a stage's first output, TTFT, e2e), the request rate, running/waiting requests and KV
// cache usage per stage and replica (when the session has them), on one time axis. A
// drag over the charts selects a window that re-scopes the other views (table,
// histograms, tail); a step without a value is a gap, and a gauge flagged
// metric-not-reporting is named, never drawn as a real 0. The series are of the boot and server
// picked and the exclude-cold choice (the gauges of that boot and server: cold requests cut no engine's load),
// asked of the server with that scope and captioned with it; the window is chosen here, so it
// is drawn over them, not cut. The time axis is the Each request chart's below (its view,
// zoomed or not, and its plot edges).
import type {
  ExplainScope,
  Finding,
  GaugeSeries,
  OverTimeResult,
  OverTimeSeries,
  WebviewToHost,
} from '../../../server/protocol';
import { durationAxis, LABEL_EDGE_PX, placeTickLabels, timeTickStep, timeTicks } from '../../shared/axis';
import { fitCanvas, observeSize, strokeGappedLine } from '../../shared/canvas';
import { h, setChildren, setText } from '../../shared/dom';
import { formatDurationMs, timeTickText } from '../../shared/format';
import { targetText } from '../../shared/tailModel';
import { readPalette } from '../../shared/theme';
import { scopeText } from '../../shared/scopeText';
import { WINDOW_REQUESTS } from '../../../server/shared';
import type { OverTimeLayout, Pane } from './overTimeLayout';
import {
  brushWindow,
  gaugesWith,
  layoutOverTime,
  maxOf,
  points,
  seriesSpan,
  valueAxis,
  xOfTime,
} from './overTimeLayout';
import {
  gaugeName,
  GAUGE_SOURCE_TEXT,
  gaugeScopeText,
  gaugeSourcesNote,
  metricChoices,
  overTimeEmptyText,
  rateNote,
} from './overTimeModel';

export interface OverTimeHost {
  post(message: WebviewToHost): void;
  nextSeq(): number;
  /** A window was brushed (or cleared: null). */
  selectWindow(window: { fromMs: number; toMs: number } | null): void;
  metricChanged(metric: string | null): void;
  /** The series' own clock span (null: no point): the Each request chart's view takes it in. */
  spanChanged(span: TimeSpan | null): void;
}

interface LegendItem {
  readonly label: string;
  readonly color: string;
  readonly dashed?: boolean;
  /** Hover text: where a gauge's samples came from. */
  readonly title?: string;
}

interface TimeSpan {
  readonly t0: number;
  readonly t1: number;
}

/** Gauges whose KV usage a metric-not-reporting finding names: not plotted. */
function kvNotReporting(g: GaugeSeries, findings: readonly Finding[]): boolean {
  return findings.some(
    (f) =>
      f.code === 'metric-not-reporting' &&
      /kv/i.test(f.family ?? f.message) &&
      (f.stageId === null || g.stage === null || String(f.stageId) === g.stage.split('_')[0]),
  );
}

export class OverTimeView {
  readonly el: HTMLElement;
  private readonly metricSelect = h('select', {
    testId: 'overtime-metric',
    attrs: { 'aria-label': 'Metric of the rolling percentiles' },
  });
  private readonly canvas = h('canvas', { testId: 'overtime-canvas', attrs: { role: 'img' } });
  private readonly wrap = h('div', { className: 'overtime-wrap' }, this.canvas);
  private readonly status = h('span', {
    className: 'muted',
    testId: 'overtime-status',
    attrs: { 'aria-live': 'polite' },
  });
  /** What the series are of, as the server answered: the boot, cold left out; the gauges' boot. */
  private readonly scopeText = h('p', { className: 'muted spans-scope', testId: 'overtime-scope' });
  private readonly legend = h('div', { className: 'legend', testId: 'overtime-legend' });
  private readonly notes = h('ul', { className: 'overtime-notes muted', testId: 'overtime-notes' });
  private readonly metricControl = h('label', { className: 'control' }, 'Percentiles of ', this.metricSelect);
  private readonly dragHint = h('span', {
    className: 'muted',
    text: 'Drag across the charts to look at a window in every view',
  });
  /** Stands in for the charts when there is nothing to draw. */
  private readonly empty = h('p', { className: 'muted', testId: 'overtime-empty', role: 'status' });
  private series: OverTimeSeries | null = null;
  private layout: OverTimeLayout | null = null;
  private metric: string | null;
  /** The metric is the user's pick (kept from session to session), not a session's default target. */
  private metricPicked: boolean;
  private findings: readonly Finding[] = [];
  private stageNames: Readonly<Record<string, string>> = {};
  private width = 600;
  private seq = 0;
  private excludeCold = false;
  private boot: number | undefined = undefined;
  private server: string | undefined = undefined;
  private window: { fromMs: number; toMs: number } | null = null;
  private drag: { x: number; now: number } | null = null;
  private frame = 0;
  /** The Each request chart's view: drawn on it, so an instant is at one x in both charts. */
  private timeView: TimeSpan | null = null;

  constructor(
    private readonly host: OverTimeHost,
    metric: string | null,
  ) {
    this.metric = metric;
    this.metricPicked = metric !== null;
    this.metricSelect.addEventListener('change', () => {
      this.metric = this.metricSelect.value;
      this.metricPicked = true;
      this.host.metricChanged(this.metric);
      this.schedule();
    });
    this.el = h(
      'div',
      { className: 'overtime', testId: 'overtime' },
      h('div', { className: 'spans-toolbar' }, this.metricControl, this.status, this.dragHint),
      this.scopeText,
      this.empty,
      this.wrap,
      this.legend,
      this.notes,
    );
    observeSize(this.wrap, (w) => {
      // 0 while hidden (nothing to draw): the last real width is kept for when it shows again.
      if (w > 0 && Math.abs(w - this.width) >= 1) {
        this.width = w;
        this.schedule();
      }
    });
    this.canvas.addEventListener('pointerdown', (ev) => {
      this.canvas.setPointerCapture(ev.pointerId);
      this.drag = { x: ev.offsetX, now: ev.offsetX };
    });
    this.canvas.addEventListener('pointermove', (ev) => {
      if (this.drag === null) return;
      this.drag.now = ev.offsetX;
      this.schedule();
    });
    this.canvas.addEventListener('pointerup', (ev) => {
      const d = this.drag;
      this.drag = null;
      if (d === null || this.layout === null) return;
      const w = brushWindow(this.layout, d.x, ev.offsetX);
      if (w !== null) this.host.selectWindow(w);
      this.schedule();
    });
  }

  setStageNames(names: Readonly<Record<string, string>>): void {
    this.stageNames = names;
  }

  setFindings(findings: readonly Finding[]): void {
    this.findings = findings;
  }

  /**
   * The series are of the boot and server picked (their requests span the axis) and cold left out or not; the
   * brushed window is drawn over them, so another can be brushed.
   */
  setScope(scope: ExplainScope | undefined): void {
    this.excludeCold = scope?.excludeCold === true;
    this.boot = scope?.boot;
    this.server = scope?.server;
    this.window =
      scope?.fromMs !== undefined && scope.toMs !== undefined ? { fromMs: scope.fromMs, toMs: scope.toMs } : null;
    this.schedule();
  }

  /** The clock span to draw (the Each request chart's view); null: the series' own. */
  setTimeView(view: TimeSpan | null): void {
    if (view?.t0 === this.timeView?.t0 && view?.t1 === this.timeView?.t1) return;
    this.timeView = view;
    this.schedule();
  }

  /**
   * Another session is shown: its series, its zoom and the answers still on their way belong to
   * the one before. The next answer is drawn on its own span.
   */
  forget(): void {
    this.series = null;
    this.layout = null;
    this.timeView = null;
    this.window = null;
    this.drag = null;
    this.seq = -1;
    // A default target is the session's own ("stage 1" is another stage in another pipeline).
    if (!this.metricPicked) this.metric = null;
    setText(this.scopeText, '');
    this.host.spanChanged(null);
    this.schedule();
  }

  query(): void {
    this.seq = this.host.nextSeq();
    this.host.post({
      type: 'queryOverTime',
      seq: this.seq,
      params:
        this.excludeCold || this.boot !== undefined || this.server !== undefined ? { scope: this.seriesScope() } : {},
    });
  }

  /** The scope the series are asked of: the other views' without the window. */
  private seriesScope(): ExplainScope {
    return {
      ...(this.excludeCold ? { excludeCold: true } : {}),
      ...(this.boot === undefined ? {} : { boot: this.boot }),
      ...(this.server === undefined ? {} : { server: this.server }),
    };
  }

  accept(seq: number, result: OverTimeResult): void {
    if (seq !== this.seq) return;
    this.series = result.series;
    const gauges = gaugeScopeText(result);
    setText(
      this.scopeText,
      `${scopeText(result.scope, result.requests, result.sessionRequests)}${gauges === null ? '' : `. ${gauges}`}`,
    );
    this.host.spanChanged(seriesSpan(result.series));
    const metrics = metricChoices(result.series);
    if (this.metric === null || !metrics.includes(this.metric))
      this.metric = metrics.filter((m) => m.endsWith('.firstOutput')).at(-1) ?? metrics[0] ?? null;
    const key = metrics.join('|');
    if (this.metricSelect.dataset['key'] !== key) {
      this.metricSelect.dataset['key'] = key;
      setChildren(
        this.metricSelect,
        metrics.map((m) => new Option(targetText(m, this.stageNames), m)),
      );
    }
    this.metricSelect.value = this.metric ?? '';
    this.schedule();
  }

  redraw(): void {
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
    const s = this.series;
    const emptyText = overTimeEmptyText(s, this.excludeCold, this.boot, this.server);
    // Nothing to draw: one sentence instead of charts and a picker with nothing in it.
    this.empty.hidden = emptyText === null;
    setText(this.empty, emptyText ?? '');
    this.wrap.hidden = emptyText !== null;
    this.dragHint.hidden = emptyText !== null;
    this.metricControl.hidden = s === null || metricChoices(s).length === 0;
    if (s === null || emptyText !== null) {
      setText(this.status, '');
      this.legend.replaceChildren();
      delete this.legend.dataset['key'];
      this.notes.replaceChildren();
      return;
    }
    const kvGauges = gaugesWith(s.gauges, 'kvCacheUsagePerc');
    const kvShown = kvGauges.filter((g) => !kvNotReporting(g, this.findings));
    const l = layoutOverTime(s, this.width, kvShown.length > 0, this.timeView);
    this.layout = l;
    const ctx = fitCanvas(this.canvas, this.width, l.height);
    Object.assign(this.canvas.dataset, { t0: String(l.t0), t1: String(l.t1), x0: String(l.x0), x1: String(l.x1) });
    const pal = readPalette();
    ctx.font = pal.font;
    const rolling = s.series.find((r) => r.metric === this.metric) ?? null;
    const metricText = this.metric === null ? '' : targetText(this.metric, this.stageNames);
    // A log shorter than a few windows has a point or two per line: said, so a dot does not read as a broken chart.
    const fewPoints =
      s.times.length < 3
        ? ` · ${s.times.length === 1 ? 'one point' : 'two points'}: the requests finished within about one window (a window holds ~${WINDOW_REQUESTS} requests at this log's rate), too short a log for a trend`
        : '';
    setText(
      this.status,
      `rolling over ${formatDurationMs(s.windowMs)}, a step every ${formatDurationMs(s.stepMs)}${this.excludeCold ? ', cold left out' : ''}${fewPoints}`,
    );
    this.canvas.setAttribute(
      'aria-label',
      `Over time: rolling p50, p90 and p99 of ${metricText}, requests per second${l.panes.some((p) => p.id === 'load') ? ', running and waiting requests' : ''}${l.panes.some((p) => p.id === 'kv') ? ', KV cache usage' : ''}. Drag to select a window for every view.`,
    );
    const legend: LegendItem[] = [];
    for (const pane of l.panes) {
      if (pane.id === 'latency' && rolling !== null) {
        const y = durationAxis(maxOf([rolling.p99, rolling.p90, rolling.p50]), 3);
        const yMax = y.max;
        this.axis(ctx, l, pane, yMax, y.ticks, y.format, metricText);
        this.clipToPlot(ctx, l);
        const lines: [string, readonly (number | null)[], string][] = [
          ['p50', rolling.p50, pal.series[0] as string],
          ['p90', rolling.p90, pal.series[1] as string],
          ['p99', rolling.p99, pal.red],
        ];
        for (const [name, values, color] of lines) {
          strokeGappedLine(ctx, points(l, pane, s.times, values, yMax), color);
          legend.push({ label: `${name} ${metricText}`, color });
        }
        ctx.restore();
      }
      if (pane.id === 'rate') {
        const rate = valueAxis(maxOf([s.requestRate]), '/s');
        this.axis(ctx, l, pane, rate.max, rate.ticks, rate.format, 'requests per second');
        this.clipToPlot(ctx, l);
        strokeGappedLine(ctx, points(l, pane, s.times, s.requestRate, rate.max), pal.foreground);
        ctx.restore();
        legend.push({ label: 'finished requests per second', color: pal.foreground });
      }
      if (pane.id === 'load') {
        const gs = s.gauges;
        const y = valueAxis(maxOf(gs.flatMap((g) => [g.running, g.waiting])), '', true);
        const yMax = y.max;
        this.axis(ctx, l, pane, yMax, y.ticks, y.format, 'running / waiting');
        this.clipToPlot(ctx, l);
        gs.forEach((g, i) => {
          const color = pal.series[i % pal.series.length] as string;
          strokeGappedLine(ctx, points(l, pane, s.times, g.running, yMax), color);
          ctx.setLineDash([4, 3]);
          strokeGappedLine(ctx, points(l, pane, s.times, g.waiting, yMax), color);
          ctx.setLineDash([]);
          const title = GAUGE_SOURCE_TEXT[g.source];
          legend.push(
            { label: `running ${gaugeName(g, this.stageNames)}`, color, title },
            { label: `waiting ${gaugeName(g, this.stageNames)}`, color, dashed: true, title },
          );
        });
        ctx.restore();
      }
      if (pane.id === 'kv') {
        const kv = valueAxis(100, '%');
        this.axis(ctx, l, pane, kv.max, kv.ticks, kv.format, 'KV cache usage');
        this.clipToPlot(ctx, l);
        kvShown.forEach((g) => {
          const color = pal.series[s.gauges.indexOf(g) % pal.series.length] as string;
          strokeGappedLine(ctx, points(l, pane, s.times, g.kvCacheUsagePerc, 100), color);
          legend.push({
            label: `KV cache ${gaugeName(g, this.stageNames)}`,
            color,
            title: GAUGE_SOURCE_TEXT[g.source],
          });
        });
        ctx.restore();
      }
    }
    this.timeAxis(ctx, l);
    this.drawWindow(ctx, l, pal.focus);
    this.renderLegend(legend);
    const hidden = kvGauges.filter((g) => kvNotReporting(g, this.findings));
    const noRate = rateNote(s);
    const sources = gaugeSourcesNote(l.panes.some((p) => p.id === 'load' || p.id === 'kv') ? s.gauges : []);
    setChildren(this.notes, [
      ...(noRate === null ? [] : [h('li', { testId: 'overtime-rate-note', text: noRate })]),
      ...(sources === null ? [] : [h('li', { testId: 'overtime-sources-note', text: sources })]),
      ...hidden.map((g) =>
        h('li', {
          testId: 'overtime-not-reporting',
          text: `KV cache usage of ${gaugeName(g, this.stageNames)} is not plotted: the metric reads 0 while requests run (metric-not-reporting), which is not a measurement.`,
        }),
      ),
    ]);
  }

  /** Lines and the window are drawn inside the plot only (a zoomed view cuts them at its sides); restore() after. */
  private clipToPlot(ctx: CanvasRenderingContext2D, l: OverTimeLayout): void {
    ctx.save();
    ctx.beginPath();
    ctx.rect(l.x0, 0, l.x1 - l.x0, l.height);
    ctx.clip();
  }

  private axis(
    ctx: CanvasRenderingContext2D,
    l: OverTimeLayout,
    pane: Pane,
    yMax: number,
    ticks: readonly number[],
    fmt: (v: number) => string,
    title: string,
  ): void {
    const pal = readPalette();
    ctx.strokeStyle = pal.grid;
    ctx.fillStyle = pal.muted;
    ctx.lineWidth = 1;
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    for (const v of ticks) {
      const y = pane.top + pane.height - (v / (yMax > 0 ? yMax : 1)) * pane.height;
      ctx.beginPath();
      ctx.moveTo(l.x0, Math.round(y) + 0.5);
      ctx.lineTo(l.x1, Math.round(y) + 0.5);
      ctx.stroke();
      ctx.fillText(fmt(v), l.x0 - 4, y);
    }
    ctx.textAlign = 'left';
    ctx.textBaseline = 'top';
    ctx.fillStyle = pal.foreground;
    ctx.fillText(title, l.x0 + 4, pane.top);
  }

  private timeAxis(ctx: CanvasRenderingContext2D, l: OverTimeLayout): void {
    const pal = readPalette();
    ctx.fillStyle = pal.muted;
    ctx.textAlign = 'left';
    ctx.textBaseline = 'top';
    const bottom = l.height - 18;
    // As the Each request chart labels the same axis: as precise as the ticks' spacing.
    const count = Math.max(2, Math.floor((l.x1 - l.x0) / 110));
    const step = timeTickStep(l.t0, l.t1, count);
    const labels = timeTicks(l.t0, l.t1, count, false).map((t) => {
      const text = timeTickText(t, step);
      return { text, x: xOfTime(l, t), width: ctx.measureText(text).width };
    });
    // Each label whole inside the canvas, none over another (as in the Each request chart).
    const lefts = placeTickLabels(labels, LABEL_EDGE_PX, this.width - LABEL_EDGE_PX);
    const drawn: string[] = [];
    labels.forEach(({ text }, i) => {
      const left = lefts[i];
      if (left === null || left === undefined) return;
      ctx.fillText(text, left, bottom + 4);
      drawn.push(text);
    });
    // The labels drawn, readable outside the canvas (as its t0/t1 are).
    this.canvas.dataset['ticks'] = drawn.join(' ');
  }

  private drawWindow(ctx: CanvasRenderingContext2D, l: OverTimeLayout, color: string): void {
    const sel =
      this.drag !== null
        ? { a: Math.min(this.drag.x, this.drag.now), b: Math.max(this.drag.x, this.drag.now) }
        : this.window === null
          ? null
          : { a: xOfTime(l, this.window.fromMs), b: xOfTime(l, this.window.toMs) };
    if (sel === null) return;
    this.clipToPlot(ctx, l);
    ctx.globalAlpha = 0.15;
    ctx.fillStyle = color;
    ctx.fillRect(sel.a, 0, Math.max(1, sel.b - sel.a), l.height - 20);
    ctx.globalAlpha = 1;
    ctx.strokeStyle = color;
    ctx.strokeRect(sel.a + 0.5, 0.5, Math.max(1, sel.b - sel.a), l.height - 21);
    ctx.restore();
    this.canvas.dataset['window'] = this.window === null ? '' : `${this.window.fromMs}-${this.window.toMs}`;
  }

  private renderLegend(items: readonly LegendItem[]): void {
    const key = items.map((i) => `${i.label}${i.color}${i.dashed === true ? 'd' : ''}`).join('|');
    if (this.legend.dataset['key'] === key) return;
    this.legend.dataset['key'] = key;
    setChildren(
      this.legend,
      items.map((i) => {
        const sw = h('span', { className: 'swatch', attrs: { 'aria-hidden': 'true' } });
        sw.style.background = i.dashed === true ? 'none' : i.color;
        if (i.dashed === true) sw.style.borderTop = `2px dashed ${i.color}`;
        return h(
          'span',
          { className: 'legend-item', ...(i.title === undefined ? {} : { title: i.title }) },
          sw,
          i.label,
        );
      }),
    );
  }
}
