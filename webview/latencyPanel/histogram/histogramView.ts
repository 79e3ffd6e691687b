// Per-stage histogram of any split value or field (own canvas: a few dozen bars plus
// percentile markers; counts that are not numbers are listed beside, never binned).
import type {
  HistogramParams,
  HistogramResult,
  Percentile,
  SplitName,
  StageSummary,
  WebviewToHost,
} from '../../../server/protocol';
import { fitCanvas, observeSize, wrapText } from '../../shared/canvas';
import { h, setChildren, setData, setText } from '../../shared/dom';
import { formatCompact, formatCount, formatExact, unitOfField } from '../../shared/format';
import { notMeasuredOnOneOutput, ONE_OUTPUT_FIELD_TEXT } from '../../../server/shared';
import {
  FIELD_OMNI_TIMING_STAGE,
  PREFILL_DECODE_LABEL,
  PREFILL_DECODE_SHORT,
  SPLIT_NAMES,
  fieldChoiceLabel,
  SPLIT_FIELD,
  SPLIT_LABEL,
  stageLabel,
} from '../../shared/labels';
import type { Palette } from '../../shared/theme';
import { readPalette } from '../../shared/theme';
import { Tooltip } from '../../shared/tooltip';
import { EXPLAIN, noNumberText, STATE_TEXT } from '../../shared/valueState';
import type { HistogramBar, HistogramLayout } from './histogramLayout';
import { binnedCaption, histogramBarAt, histogramLayout, unbinnedCounts, unbinnedSentence } from './histogramLayout';
import type { PercentileBand } from './percentileMarks';
import { percentileMarks } from './percentileMarks';

export interface HistogramChoice {
  readonly stageKey: string | null;
  readonly metric: string;
  readonly bins: number;
}

const HEIGHT = 260;
const BOX = { left: 56, right: 16, top: 14, bottom: 26 };
/** Between the lines of a message drawn in place of the bars. */
const MESSAGE_LINE_HEIGHT = 16;
const BIN_CHOICES = [20, 40, 80];
/** Marked on every histogram; the one chosen in the toolbar is drawn in red. */
const MARKED: readonly Percentile[] = ['p50', 'p90', 'p99'];
/** Between the percentile labels' band and the plot: room for the top count label. */
const BAND_GAP = 8;

export class HistogramView {
  readonly el: HTMLElement;
  private readonly stageSelect = h('select', { testId: 'histogram-stage', attrs: { 'aria-label': 'Stage' } });
  private readonly metricSelect = h('select', {
    testId: 'histogram-metric',
    attrs: { 'aria-label': 'Value to histogram' },
  });
  private readonly binsSelect = h('select', { testId: 'histogram-bins', attrs: { 'aria-label': 'Number of bins' } });
  private readonly canvas = h('canvas', { testId: 'histogram-canvas', attrs: { role: 'img', tabindex: '0' } });
  private readonly wrap = h('div', { className: 'histogram-wrap' }, this.canvas);
  private readonly unbinned = h('ul', {
    className: 'unbinned',
    testId: 'histogram-unbinned',
    attrs: { 'aria-label': 'Values that are not numbers, not binned' },
  });
  private readonly unbinnedNone = h('li', {
    className: 'muted',
    testId: 'histogram-unbinned-none',
    text: 'none',
    title: 'Every value of this stage and metric is a number: none is left out of the bins.',
  });
  private readonly binnedNote = h('p', { className: 'muted', testId: 'histogram-binned' });
  private readonly tooltip = new Tooltip();
  private readonly controls = h(
    'div',
    { className: 'histogram-controls' },
    this.stageSelect,
    this.metricSelect,
    this.binsSelect,
  );
  private stages: readonly StageSummary[] = [];
  private result: HistogramResult | null = null;
  private layout: HistogramLayout | null = null;
  private pendingSeq = -1;
  private width = 600;
  private pct: Percentile = 'p50';
  private optionsKey = '';
  private readonly unbinnedItems = new Map<string, HTMLLIElement>();

  constructor(
    private choice: HistogramChoice,
    private readonly post: (m: WebviewToHost) => void,
    private readonly nextSeq: () => number,
    private readonly onChoice: (c: HistogramChoice) => void,
  ) {
    this.binsSelect.append(...BIN_CHOICES.map((b) => new Option(`${b} bins`, String(b))));
    this.binsSelect.value = String(choice.bins);
    // A metric the user picks is kept even with nothing measured; a new stage gets one that has numbers.
    const changed = (pickMeasured: boolean): void => {
      this.choice = {
        stageKey: this.stageSelect.value || null,
        metric: this.metricSelect.value,
        bins: Number(this.binsSelect.value),
      };
      this.fillMetrics(pickMeasured);
      this.onChoice(this.choice);
      this.query();
    };
    this.stageSelect.addEventListener('change', () => changed(true));
    this.metricSelect.addEventListener('change', () => changed(false));
    this.binsSelect.addEventListener('change', () => changed(false));
    this.el = h(
      'div',
      { className: 'histogram' },
      this.controls,
      h(
        'div',
        { className: 'histogram-body' },
        this.wrap,
        h('aside', { className: 'unbinned-box' }, h('h3', { text: 'Not binned' }), this.unbinned, this.binnedNote),
      ),
    );
    observeSize(this.wrap, (w) => {
      if (Math.abs(w - this.width) >= 1) {
        this.width = w;
        this.draw();
      }
    });
    this.canvas.addEventListener('mousemove', (ev) => this.hover(ev));
    this.canvas.addEventListener('mouseleave', () => this.tooltip.hide());
  }

  /** Another control for the toolbar (the percentile marker switch). */
  addControl(el: HTMLElement): void {
    this.controls.append(el);
  }

  get current(): HistogramChoice {
    return this.choice;
  }

  setPercentile(pct: Percentile): void {
    this.pct = pct;
    this.draw();
  }

  /** The session's stages changed (new stage, new fields): refresh the pickers. */
  setStages(stages: readonly StageSummary[], stageNames: Readonly<Record<string, string>>): void {
    this.stages = stages.filter((s) => s.replicaId === null);
    const key =
      this.stages.map((s) => `${s.stageKey}:${Object.keys(s.fields).join(',')}`).join('|') + JSON.stringify(stageNames);
    if (key === this.optionsKey) {
      // Same stages and fields: only the counts in the options' words may have moved.
      this.relabelMetrics();
      return;
    }
    this.optionsKey = key;
    setChildren(
      this.stageSelect,
      this.stages.map((s) => new Option(stageLabel(s.stageKey, stageNames), s.stageKey)),
    );
    if (this.choice.stageKey === null || !this.stages.some((s) => s.stageKey === this.choice.stageKey)) {
      this.choice = { ...this.choice, stageKey: this.stages[this.stages.length - 1]?.stageKey ?? null };
    }
    this.stageSelect.value = this.choice.stageKey ?? '';
    this.fillMetrics(true);
  }

  /**
   * The metric options of the chosen stage, those without a measured value marked. With
   * `pickMeasured` (the tab opens, the stage changes), a chosen metric that has no measured
   * value in this stage gives way to the first one that has (a codec's prefill and TTFT are
   * often never measured).
   */
  private fillMetrics(pickMeasured: boolean): void {
    const { splits, fields } = this.metricOptions();
    const group = (label: string, options: HTMLOptionElement[]): HTMLOptGroupElement => {
      const g = document.createElement('optgroup');
      g.label = label;
      setChildren(g, options);
      return g;
    };
    this.metricSelect.replaceChildren(group('Phase split', splits), group('Fields', fields));
    const options = [...this.metricSelect.options];
    const current = options.find((o) => o.value === this.choice.metric);
    if (current === undefined || (pickMeasured && current.dataset['measured'] === 'false')) {
      const measured = options.find((o) => o.dataset['measured'] === 'true');
      this.choice = { ...this.choice, metric: measured?.value ?? current?.value ?? 'split:prefillMs' };
    }
    this.metricSelect.value = this.choice.metric;
  }

  /**
   * The same metrics as the options shown, with new counts (a live session grows): their words
   * are rewritten in place, so the choice and the open list stay as they are.
   */
  private relabelMetrics(): void {
    const { splits, fields } = this.metricOptions();
    const fresh = [...splits, ...fields];
    const shown = [...this.metricSelect.options];
    if (fresh.length !== shown.length || fresh.some((o, i) => o.value !== shown[i]?.value)) {
      this.fillMetrics(false);
      return;
    }
    fresh.forEach((o, i) => {
      const old = shown[i] as HTMLOptionElement;
      if (old.text !== o.text) old.text = o.text;
      old.dataset['measured'] = o.dataset['measured'];
    });
  }

  /** The chosen stage's metric options, worded with its current counts. */
  private metricOptions(): { splits: HTMLOptionElement[]; fields: HTMLOptionElement[] } {
    const stage = this.stages.find((s) => s.stageKey === this.choice.stageKey);
    // A stage whose requests emit one output: its vllm_prefill_ms covers decode (oneOutputStage.ts).
    const oneOutput = stage !== undefined && stage.oneOutputRequests > 0;
    const splitLabel = (n: SplitName): string =>
      oneOutput && n === 'prefillMs'
        ? `${PREFILL_DECODE_LABEL} on ${stage.oneOutputRequests} of ${stage.requestCount} requests`
        : oneOutput && n === 'decodeMs'
          ? `${SPLIT_LABEL[n]} (0: inside prefill+decode on ${stage.oneOutputRequests} requests)`
          : SPLIT_LABEL[n];
    const option = (label: string, value: string): HTMLOptionElement => {
      const measured = stage === undefined || hasMeasuredValues(stage, value);
      const lie = oneOutput && value.startsWith('field:') && notMeasuredOnOneOutput(value.slice('field:'.length));
      const state = lie ? STATE_TEXT.notRecorded : measured ? '' : noNumberText(stage, value);
      const o = new Option(state === '' ? label : `${label} — ${state}`, value);
      o.dataset['measured'] = String(measured);
      return o;
    };
    const splits = SPLIT_NAMES.map((n) => option(`${splitLabel(n)} (${SPLIT_FIELD[n]})`, `split:${n}`));
    const splitFields = new Set(Object.values(SPLIT_FIELD));
    // An interval between outputs of a one-output stage: worded as its decode is.
    const fieldText = (f: string): string => {
      const label = fieldChoiceLabel(f);
      return oneOutput && notMeasuredOnOneOutput(f)
        ? `${label} (0: one output, in ${PREFILL_DECODE_SHORT} on ${stage.oneOutputRequests} requests)`
        : label;
    };
    // A field whose every printed number is no measurement (a one-output stage's ITL) is still offered, saying so.
    const fields = [...new Set([...Object.keys(stage?.fields ?? {}), ...Object.keys(stage?.fieldsNotRecorded ?? {})])]
      .filter((f) => !splitFields.has(f))
      .map((f) => option(fieldText(f), `field:${f}`));
    return { splits, fields };
  }

  /** Ask for the histogram of the current choice. */
  private scope: HistogramParams['scope'];

  /** Only the requests of this scope (the Over Time window, exclude cold). */
  setScope(scope: HistogramParams['scope']): void {
    this.scope = scope;
  }

  query(): void {
    if (this.choice.stageKey === null) return;
    const seq = this.nextSeq();
    this.pendingSeq = seq;
    const params: Omit<HistogramParams, 'sessionId'> = {
      stageKey: this.choice.stageKey,
      metric: this.choice.metric,
      bins: this.choice.bins,
      ...(this.scope === undefined ? {} : { scope: this.scope }),
    };
    this.post({ type: 'queryHistogram', seq, params });
  }

  accept(seq: number, result: HistogramResult): void {
    // Only the answer to the latest question (an older one may arrive late).
    if (seq !== this.pendingSeq) return;
    // A stage's [OmniTiming] time is printed in seconds; every other view shows it in ms.
    const scale = this.fieldScale();
    const d = result.distribution;
    this.result =
      scale === 1
        ? result
        : {
            ...result,
            edges: result.edges.map((e) => e * scale),
            distribution: d === null ? null : { ...d, p50: d.p50 * scale, p90: d.p90 * scale, p99: d.p99 * scale },
          };
    this.renderUnbinned(result);
    this.draw();
  }

  redraw(): void {
    this.draw();
  }

  private unit(): string {
    const m = this.choice.metric;
    if (this.fieldScale() !== 1) return 'ms';
    return m.startsWith('split:') ? 'ms' : unitOfField(m.slice('field:'.length));
  }

  /** 1000 for the [OmniTiming] stage time (seconds, shown in ms as everywhere else), else 1. */
  private fieldScale(): number {
    return this.choice.metric === `field:${FIELD_OMNI_TIMING_STAGE}` ? 1000 : 1;
  }

  /**
   * Where each percentile's label goes, above the plot: the percentiles of the numbers binned
   * (in the histogram's scope), none when there are none.
   */
  private percentileBand(
    ctx: CanvasRenderingContext2D,
    palette: Palette,
    result: HistogramResult,
    width: number,
  ): PercentileBand {
    const d = result.distribution;
    const lo = result.edges[0] ?? 0;
    const hi = result.edges[result.edges.length - 1] ?? 0;
    const inputs = MARKED.flatMap((pct) => {
      if (d === null) return [];
      const value = d[pct];
      // A percentile that reads an inferred number is shown as the cells show one: ≈.
      const approx = result.inferredPercentiles.includes(pct) ? '≈' : '';
      const text = `${pct} ${approx}${formatCompact(value)}`;
      ctx.font = markFont(palette, pct === this.pct);
      return [{ pct, value, text, textWidth: ctx.measureText(text).width }];
    });
    return percentileMarks(inputs, lo, hi, { width, left: BOX.left, right: BOX.right });
  }

  /** One item per state, kept across live refreshes (a re-created item would wipe the tooltip being read). */
  private renderUnbinned(result: HistogramResult): void {
    const explain = {
      notRecorded: EXPLAIN.notRecorded,
      notMeasured: EXPLAIN.notMeasured,
      hidden: EXPLAIN.hidden,
      oneOutput: ONE_OUTPUT_TITLE,
    };
    const items = unbinnedCounts(result).map((c) => {
      let li = this.unbinnedItems.get(c.state);
      if (li === undefined) {
        li = h(
          'li',
          { title: explain[c.state], dataset: { state: c.state } },
          h('span', {
            className: 'v',
            text: c.label,
            dataset: { state: c.state === 'oneOutput' ? 'covered' : c.state },
          }),
          ' ',
          h('strong'),
        );
        this.unbinnedItems.set(c.state, li);
      }
      setData(li, 'count', String(c.count));
      const count = li.querySelector('strong');
      if (count !== null) setText(count, formatCount(c.count));
      return li;
    });
    // Every value a number: one neutral line, not a count of 0 per state.
    if (items.length === 0) items.push(this.unbinnedNone);
    if (items.length !== this.unbinned.children.length || items.some((li, i) => this.unbinned.children[i] !== li))
      this.unbinned.replaceChildren(...items);
  }

  private draw(): void {
    const r = this.result;
    const width = Math.max(240, this.width);
    const ctx = fitCanvas(this.canvas, width, HEIGHT);
    if (r === null) return;
    const palette = readPalette();
    const lo = r.edges[0] as number;
    const hi = r.edges[r.edges.length - 1] as number;
    const band = this.percentileBand(ctx, palette, r, width);
    const top = Math.max(BOX.top, band.height + BAND_GAP);
    const layout = histogramLayout(r, { width, height: HEIGHT, ...BOX, top });
    this.layout = layout;
    const unit = this.unit();
    setText(this.binnedNote, binnedCaption(r, layout.binned, unit) + (r.oneOutput > 0 ? ` ${oneOutputNote(r)}` : ''));
    this.binnedNote.title = r.inferred > 0 ? EXPLAIN.inferred : r.oneOutput > 0 ? ONE_OUTPUT_TITLE : '';
    const drawn = layout.bars.filter((b) => b.count > 0);
    // The bars drawn, for the browser tests: [from, to, count, inferred].
    this.canvas.dataset['bars'] = JSON.stringify(
      layout.binned === 0 ? [] : drawn.map((b) => [b.from, b.to, b.count, b.inferred].map((v) => Number(v.toFixed(3)))),
    );
    if (layout.bars.length === 0 || layout.binned === 0) {
      const why =
        r.oneOutput > 0
          ? `No measurement: the stage emits one output: ${oneOutputReason(r)}.`
          : 'No measured values for this stage and value.';
      ctx.fillStyle = palette.muted;
      ctx.font = palette.font;
      const lines = wrapText(ctx, why, width - BOX.left - BOX.right);
      const top = HEIGHT / 2 - ((lines.length - 1) * MESSAGE_LINE_HEIGHT) / 2;
      lines.forEach((line, i) => ctx.fillText(line, BOX.left, top + i * MESSAGE_LINE_HEIGHT));
      // The lines drawn, for the browser tests (the canvas has no DOM of its own).
      this.canvas.dataset['message'] = JSON.stringify(lines);
      this.canvas.setAttribute(
        'aria-label',
        r.oneOutput > 0 ? `Histogram: ${why} ${oneOutputNote(r)}` : 'Histogram: no measured values.',
      );
      return;
    }
    delete this.canvas.dataset['message'];
    drawAxes(ctx, layout, palette, width, unit);
    ctx.fillStyle = palette.phase.prefill;
    for (const b of drawn) drawBar(ctx, b, palette);
    drawPercentileMarks(ctx, band, palette, this.pct);
    // Where the labels went, for the browser tests (the canvas has no DOM of its own).
    this.canvas.dataset['plotTop'] = String(top);
    this.canvas.dataset['percentileMarks'] = JSON.stringify(
      band.marks.map((m) => ({
        pct: m.pct,
        text: m.text,
        x: Number(m.x.toFixed(1)),
        row: m.row,
        box: [m.box.x, m.box.y, m.box.w, m.box.h].map((v) => Number(v.toFixed(1))),
      })),
    );
    const mode = layout.mode;
    this.canvas.setAttribute(
      'aria-label',
      `Histogram of ${this.metricSelect.selectedOptions[0]?.text ?? this.choice.metric}: ${formatCount(layout.binned)} values${r.inferred > 0 ? ` (${formatCount(r.inferred)} inferred, ≈)` : ''} from ${formatExact(lo)} to ${formatExact(hi)} ${unit}` +
        (mode === null ? '' : `, most between ${formatExact(mode.from)} and ${formatExact(mode.to)} (${mode.count})`) +
        (band.marks.length === 0 ? '' : `; marked ${band.marks.map((m) => m.text).join(', ')}`) +
        `. ${unbinnedSentence(r)}`,
    );
  }

  private hover(ev: MouseEvent): void {
    if (this.layout === null) return;
    const rect = this.canvas.getBoundingClientRect();
    const bar = histogramBarAt(this.layout, ev.clientX - rect.left);
    if (bar === null) {
      this.tooltip.hide();
      return;
    }
    const inferred = bar.inferred > 0 ? ` (${formatCount(bar.inferred)} inferred, ≈)` : '';
    this.tooltip.show(
      `${formatExact(bar.from)} – ${formatExact(bar.to)} ${this.unit()}\n${formatCount(bar.count)} values${inferred}`,
      ev.clientX,
      ev.clientY,
    );
  }
}

/** Why a one-output stage's decode or interval between outputs is left out (the scrape's and the side panel's words). */
const ONE_OUTPUT_TITLE = `Not recorded: ${ONE_OUTPUT_FIELD_TEXT}. Left out of percentiles and means, never binned as 0.`;

/** The caption's sentence for the values left out because the stage emits one output. */
function oneOutputNote(r: HistogramResult): string {
  const n = r.oneOutput;
  const values = `${formatCount(n)} printed value${n === 1 ? '' : 's'} not recorded: one output`;
  return r.metric === ONE_OUTPUT_DECODE
    ? `${values}, ${oneOutputReason(r)}.`
    : `${values} (in ${PREFILL_DECODE_SHORT}), ${oneOutputReason(r)}.`;
}

/** The decode split of a one-output stage: a printed 0 that is no interval between outputs but a decode counted in prefill. */
const ONE_OUTPUT_DECODE = 'split:decodeMs';

/** Why a one-output stage's printed value is no measurement, for the value shown. */
function oneOutputReason(r: HistogramResult): string {
  return r.metric === ONE_OUTPUT_DECODE
    ? `its decode is inside its ${PREFILL_DECODE_SHORT}`
    : 'no interval between outputs';
}

/** A bar: its measured part solid, its inferred part (≈) faint and outlined above it, never passed off as measured. */
function drawBar(ctx: CanvasRenderingContext2D, b: HistogramBar, palette: Palette): void {
  const h = Math.max(1, b.h);
  const inferredH = b.inferred === b.count ? h : (h * b.inferred) / b.count;
  const measuredH = h - inferredH;
  ctx.fillStyle = palette.phase.prefill;
  if (measuredH > 0) ctx.fillRect(b.x, b.y + inferredH, b.w, measuredH);
  if (inferredH <= 0) return;
  ctx.globalAlpha = 0.35;
  ctx.fillRect(b.x, b.y, b.w, inferredH);
  ctx.globalAlpha = 1;
  ctx.strokeStyle = palette.phase.prefill;
  ctx.setLineDash([3, 2]);
  ctx.strokeRect(b.x + 0.5, b.y + 0.5, Math.max(0, b.w - 1), Math.max(0, inferredH - 1));
  ctx.setLineDash([]);
}

function markFont(palette: Palette, chosen: boolean): string {
  return chosen ? `bold ${palette.font}` : palette.font;
}

/**
 * Each percentile's dashed line from under its label down to the x axis, and its label on a
 * plate in the band above the plot; the chosen percentile in red, the others muted.
 */
function drawPercentileMarks(
  ctx: CanvasRenderingContext2D,
  band: PercentileBand,
  palette: Palette,
  chosen: Percentile,
): void {
  ctx.lineWidth = 1;
  for (const m of band.marks) {
    const color = m.pct === chosen ? palette.red : palette.muted;
    const x = Math.round(m.x) + 0.5;
    ctx.strokeStyle = color;
    ctx.setLineDash([4, 3]);
    ctx.beginPath();
    ctx.moveTo(x, m.box.y + m.box.h);
    ctx.lineTo(x, HEIGHT - BOX.bottom);
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.fillStyle = palette.background;
    ctx.fillRect(m.box.x, m.box.y, m.box.w, m.box.h);
    ctx.strokeRect(m.box.x + 0.5, m.box.y + 0.5, m.box.w - 1, m.box.h - 1);
    ctx.fillStyle = color;
    ctx.font = markFont(palette, m.pct === chosen);
    ctx.textBaseline = 'middle';
    ctx.textAlign = 'left';
    ctx.fillText(m.text, m.textX, m.box.y + m.box.h / 2);
  }
}

function drawAxes(
  ctx: CanvasRenderingContext2D,
  layout: HistogramLayout,
  palette: Palette,
  width: number,
  unit: string,
): void {
  ctx.font = palette.font;
  ctx.lineWidth = 1;
  ctx.fillStyle = palette.muted;
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  for (const t of layout.yTicks) {
    const y = Math.round(t.y) + 0.5;
    ctx.strokeStyle = palette.grid;
    ctx.globalAlpha = 0.5;
    ctx.beginPath();
    ctx.moveTo(BOX.left, y);
    ctx.lineTo(width - BOX.right, y);
    ctx.stroke();
    ctx.globalAlpha = 1;
    ctx.fillText(formatCount(t.count), BOX.left - 4, y);
  }
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  for (const t of layout.xTicks) ctx.fillText(formatCompact(t.value), t.x, HEIGHT - BOX.bottom + 6);
  ctx.textAlign = 'left';
  ctx.fillText(unit, 4, HEIGHT - BOX.bottom + 6);
}

/** Whether `metric` ("split:prefillMs", "field:stage_gen_time_ms") has a measured (or inferred) number in `stage`. */
export function hasMeasuredValues(stage: StageSummary, metric: string): boolean {
  // A one-output stage's vllm_prefill_ms is summarized as prefill+decode, not as prefill.
  if (metric === 'split:prefillMs' && (stage.prefillDecodeMs?.count ?? 0) > 0) return true;
  if (metric.startsWith('split:')) return (stage.split[metric.slice('split:'.length) as SplitName]?.count ?? 0) > 0;
  if (metric.startsWith('field:')) {
    const field = metric.slice('field:'.length);
    // Every request emits one output: its decode and intervals between outputs measure nothing.
    if (stage.requestCount > 0 && stage.oneOutputRequests === stage.requestCount && notMeasuredOnOneOutput(field))
      return false;
    return (stage.fields[field]?.count ?? 0) > 0;
  }
  return false;
}
