// Timeline of one request, drawn on a canvas (own code: a waterfall with hatched,
// overlapping segments is not a chart type of uPlot). Reconstructed segments are hatched
// with a dashed outline and their rule is listed in the legend; they are never drawn like
// measured ones.
import type { RequestDetail, SplitName } from '../../../server/protocol';
import { fitCanvas, hatchPattern, observeSize } from '../../shared/canvas';
import { h, setChildren, setData, setText } from '../../shared/dom';
import { formatDurationMs } from '../../shared/format';
import { edgeLabel, PHASE_LABEL, stageLabel } from '../../shared/labels';
import {
  preemptionCaveat,
  prefillCoversDecode,
  sentenceCase,
  SLOWEST_PHASE_RULE,
  SLOWEST_PHASE_TEXT,
} from '../../../server/shared';
import type { Palette } from '../../shared/theme';
import { readPalette } from '../../shared/theme';
import { Tooltip } from '../../shared/tooltip';
import { RequestFacts } from './requestFacts';
import { BreakdownStrip } from './breakdownStrip';
import { TransferFacts } from './transferFacts';
import { EXPLAIN, type NoTableCause } from '../../shared/valueState';
import type { SlowLabelPlace, WaterfallBar, WaterfallHandoff, WaterfallLayout } from './waterfallLayout';
import {
  barAt,
  DEFAULT_BOX,
  HANDOFF_RULE,
  handoffAt,
  placementWords,
  slowLabelPlace,
  tickLabelPlaces,
  waterfallLayout,
} from './waterfallLayout';
import type { SegmentLabelPlace } from './segmentLabels';
import { segmentLabelPlaces } from './segmentLabels';

export class WaterfallView {
  readonly el: HTMLElement;
  // Focusable by script: opening a request moves the keyboard focus here (main.ts), Escape goes back.
  private readonly title = h('h2', {
    className: 'request-title',
    testId: 'waterfall-title',
    attrs: { tabindex: '-1', 'aria-keyshortcuts': 'Escape', title: 'Escape: back to where this request was opened' },
  });
  private readonly meta = h('p', { className: 'request-meta muted', testId: 'waterfall-meta' });
  private readonly canvas = h('canvas', { testId: 'waterfall-canvas', attrs: { role: 'img', tabindex: '0' } });
  private readonly wrap = h('div', { className: 'waterfall-wrap' }, this.canvas);
  private readonly legend = h('div', {
    className: 'legend',
    testId: 'waterfall-legend',
    attrs: { 'aria-label': 'Legend' },
  });
  private readonly empty = h('p', {
    className: 'muted',
    testId: 'waterfall-empty',
    text: 'Select a request in the Requests tab and press Enter (or double-click it) to see its timeline.',
  });
  /** What a reader must know to weigh a stage's bars (a preemption's wait inside its prefill or decode). */
  private readonly caveats = h('ul', { className: 'request-caveats', testId: 'request-caveats' });
  private readonly facts = new RequestFacts();
  private readonly breakdown = new BreakdownStrip();
  private readonly transferFacts = new TransferFacts();
  private readonly tooltip = new Tooltip();
  private detail: RequestDetail | null = null;
  private layout: WaterfallLayout | null = null;
  private stageNames: Readonly<Record<string, string>> = {};
  private noTable: NoTableCause = 'info';
  private width = 600;
  private loadingId: string | null = null;

  constructor() {
    this.el = h(
      'div',
      { className: 'waterfall' },
      this.title,
      this.meta,
      this.caveats,
      this.empty,
      this.wrap,
      this.legend,
      this.breakdown.el,
      this.facts.el,
      this.transferFacts.el,
    );
    this.wrap.hidden = true;
    this.legend.hidden = true;
    observeSize(this.wrap, (w) => {
      if (Math.abs(w - this.width) >= 1) {
        this.width = w;
        this.draw();
      }
    });
    this.canvas.addEventListener('mousemove', (ev) => this.hover(ev));
    this.canvas.addEventListener('mouseleave', () => this.tooltip.hide());
  }

  setStageNames(names: Readonly<Record<string, string>>): void {
    this.stageNames = names;
    this.draw();
  }

  /** Why the session's missing stage tables are missing (noTableCauseOf): the facts' missing tables name its fix. */
  setNoTableCause(cause: NoTableCause): void {
    if (cause === this.noTable) return;
    this.noTable = cause;
    this.render();
  }

  loading(requestId: string): void {
    this.loadingId = requestId;
    setText(this.title, requestId);
    setText(this.meta, 'Loading…');
  }

  show(detail: RequestDetail | null): void {
    this.detail = detail;
    if (detail === null) {
      setText(this.title, this.loadingId ?? '');
      setText(this.meta, 'This request is no longer in the session.');
    }
    this.loadingId = null;
    this.render();
  }

  /** Back to the prompt: another session's request must not stay on screen under this one's header. */
  clear(): void {
    this.loadingId = null;
    this.detail = null;
    setText(this.title, '');
    setText(this.meta, '');
    this.render();
  }

  /** Keyboard focus on the request's heading (its id), where a screen reader starts reading it. */
  focus(): void {
    this.title.focus({ preventScroll: true });
  }

  get requestId(): string | null {
    return this.detail?.request.requestId ?? null;
  }

  redraw(): void {
    this.draw();
  }

  private render(): void {
    const d = this.detail;
    this.empty.hidden = d !== null;
    this.wrap.hidden = d === null;
    this.legend.hidden = d === null;
    this.facts.show(d?.request ?? null, this.stageNames, this.noTable);
    this.transferFacts.show(d?.request ?? null, this.stageNames);
    const oneOutput = new Set(
      d === null ? [] : d.request.stages.filter((s) => prefillCoversDecode(d.request, s)).map((s) => s.stageKey),
    );
    this.breakdown.show(d?.breakdown ?? null, this.stageNames, oneOutput);
    const caveats =
      d === null
        ? []
        : d.request.stages.flatMap((s) => {
            const text = preemptionCaveat(d.request, s);
            return text === null ? [] : [`${stageLabel(s.stageKey, this.stageNames)} ${text}`];
          });
    setChildren(
      this.caveats,
      caveats.map((text) => h('li', { text })),
    );
    this.caveats.hidden = caveats.length === 0;
    if (d === null) return;
    const r = d.request;
    setText(this.title, r.requestId);
    const e2e = r.e2e['e2e_total_ms'];
    const parts = [
      e2e?.state === 'measured'
        ? `e2e ${formatDurationMs(e2e.value)}`
        : d.breakdown?.totalSource === 'omniTiming.total'
          ? `e2e ${formatDurationMs(d.breakdown.totalMs as number)} ([OmniTiming] total, 10 ms steps)`
          : 'e2e not printed',
      r.timestamp === null ? null : `at ${r.timestamp}`,
      `log line ${r.line}`,
      r.cold ? 'cold: first request after a server start' : null,
      r.complete ? null : 'a table of this request was cut off',
    ].filter((p): p is string => p !== null);
    setText(this.meta, parts.join(' · '));
    this.draw();
  }

  private draw(): void {
    if (this.detail === null || this.wrap.hidden) return;
    const palette = readPalette();
    const layout = waterfallLayout(this.detail, this.stageNames, { ...DEFAULT_BOX, width: Math.max(320, this.width) });
    this.layout = layout;
    const width = Math.max(320, this.width);
    const ctx = fitCanvas(this.canvas, width, layout.height);
    drawAxis(ctx, layout, palette, width);
    for (const lane of layout.lanes) {
      ctx.fillStyle = palette.foreground;
      ctx.font = palette.font;
      ctx.textBaseline = 'middle';
      ctx.fillText(clip(ctx, lane.label, DEFAULT_BOX.gutter - 8), 4, lane.y + lane.h / 2);
    }
    const slow = layout.slowest === null ? null : slowLabel(ctx, layout, layout.slowest, palette, width);
    // Where the label went, for the browser tests (the canvas has no DOM of its own).
    this.canvas.dataset['slowLabel'] =
      slow === null ? 'none' : `${slow.place.inside ? 'inside' : 'beside'}${slow.place.plate ? ' plate' : ''}`;
    this.canvas.dataset['slowLabelBox'] =
      slow === null ? '' : [slow.place.x, slow.place.y, slow.place.w, slow.place.h].map((v) => v.toFixed(1)).join(',');
    for (const bar of layout.bars) drawBar(ctx, bar, palette, bar === layout.slowest);
    for (const handoff of layout.handoffs) drawHandoff(ctx, handoff, palette);
    if (slow !== null) drawSlowLabel(ctx, slow, palette);
    // The slow label inside its bar stands for that bar's duration.
    const labelled = slow?.place.inside === true ? layout.slowest : null;
    const inferred = (bar: WaterfallBar): boolean => this.inferred(bar);
    const durations = segmentLabels(ctx, layout, palette, width, labelled, slow === null ? [] : [slow.place], inferred);
    for (const label of durations) drawSegmentLabel(ctx, label, palette);
    this.canvas.dataset['segmentLabels'] = JSON.stringify(
      durations.map((l) => ({
        stageKey: l.bar.stageKey,
        phase: l.bar.phase,
        text: l.text,
        where: l.where,
        plate: l.plate,
        box: [l.x, l.y, l.w, l.h].map((v) => Number(v.toFixed(1))),
      })),
    );
    this.canvas.setAttribute('aria-label', describe(layout, this.stageNames));
    this.renderLegend(layout);
  }

  private renderLegend(layout: WaterfallLayout): void {
    const items: HTMLElement[] = layout.phases.map((p) =>
      h(
        'span',
        { className: 'legend-item', dataset: { phase: p } },
        h('span', { className: 'swatch', dataset: { phase: p }, attrs: { 'aria-hidden': 'true' } }),
        PHASE_LABEL[p],
      ),
    );
    items.push(
      h(
        'span',
        { className: 'legend-item', title: `${SLOWEST_PHASE_TEXT}: ${SLOWEST_PHASE_RULE}` },
        h('span', { className: 'swatch slow', attrs: { 'aria-hidden': 'true' } }),
        SLOWEST_PHASE_TEXT,
      ),
    );
    if (layout.handoffs.length > 0) {
      items.push(
        h(
          'span',
          { className: 'legend-item', title: HANDOFF_RULE },
          h('span', { className: 'swatch handoff', attrs: { 'aria-hidden': 'true' } }),
          'hand-off (send · in flight · receive+decode)',
        ),
      );
    }
    const blocks: HTMLElement[] = [h('div', { className: 'legend-row' }, items)];
    if (layout.handoffs.length > 0) {
      blocks.push(
        h(
          'div',
          { className: 'legend-row', testId: 'legend-handoff' },
          h('span', {
            className: 'legend-text',
            text: `Hand-offs: durations measured (TransferEdgeStats), position ${HANDOFF_RULE.replace(/^assumed: /, 'assumed: ')}.`,
          }),
        ),
      );
    }
    for (const n of layout.handoffNotes)
      blocks.push(
        h(
          'div',
          { className: 'legend-row', testId: 'legend-handoff-note', dataset: { edge: n.edge } },
          h('span', { className: 'legend-text', text: `${edgeLabel(n.edge)}: ${n.text}.` }),
        ),
      );
    if (layout.anchored.length > 0) {
      blocks.push(
        h(
          'div',
          { className: 'legend-row', testId: 'legend-measured' },
          h('span', { className: 'swatch solid', attrs: { 'aria-hidden': 'true' } }),
          h('span', {
            className: 'legend-text',
            text: `Solid: measured durations, ${placementWords(layout.anchored[0]?.rule ?? '')}.`,
          }),
        ),
      );
    }
    if (layout.reconstructed.length > 0) {
      blocks.push(
        h(
          'div',
          { className: 'legend-row reconstructed', testId: 'legend-reconstructed' },
          h('span', { className: 'swatch hatched', attrs: { 'aria-hidden': 'true' } }),
          h('span', {
            className: 'legend-text',
            text: 'Hatched: reconstructed, not measured. The log gives durations, not start times, so these positions follow a rule:',
          }),
        ),
        h(
          'ul',
          { className: 'rules', testId: 'waterfall-rules' },
          layout.reconstructed.map((n) =>
            h(
              'li',
              { dataset: { stageKey: n.stageKey } },
              h('strong', { text: stageLabel(n.stageKey, this.stageNames) }),
              `: ${placementWords(n.rule)}`,
            ),
          ),
        ),
      );
    }
    this.legend.replaceChildren(...blocks);
  }

  /** The bar's phase is a hidden row read as 0 (the input split's documented rule), not a printed 0. */
  private inferred(bar: WaterfallBar): boolean {
    const name = SEGMENT_SPLIT[bar.phase];
    if (name === undefined || this.detail === null) return false;
    const stage = this.detail.request.stages.find((s) => s.stageKey === bar.stageKey);
    return stage?.split.states[name] === 'inferred';
  }

  private hover(ev: MouseEvent): void {
    if (this.layout === null) return;
    const rect = this.canvas.getBoundingClientRect();
    const handoff = handoffAt(this.layout, ev.clientX - rect.left, ev.clientY - rect.top);
    if (handoff !== null) {
      this.tooltip.show(handoffText(handoff, this.stageNames), ev.clientX, ev.clientY);
      return;
    }
    const bar = barAt(this.layout, ev.clientX - rect.left, ev.clientY - rect.top);
    if (bar === null) {
      this.tooltip.hide();
      return;
    }
    const inferred = this.inferred(bar);
    const how =
      (bar.provenance === 'reconstructed'
        ? `Reconstructed (not measured): ${placementWords(bar.rule)}`
        : inferred
          ? `${EXPLAIN.inferred} Its position: ${placementWords(bar.rule)}`
          : `Measured duration, ${placementWords(bar.rule)}`) +
      (bar.phase === 'prefillDecode' ? `\n${EXPLAIN.oneOutput}` : '');
    this.tooltip.show(
      `${stageLabel(bar.stageKey, this.stageNames)}: ${PHASE_LABEL[bar.phase]}\n${segmentText(bar, inferred)} (${formatDurationMs(bar.startMs)} → ${formatDurationMs(bar.endMs)})\n${how}`,
      ev.clientX,
      ev.clientY,
    );
  }
}

const hatches = new Map<string, CanvasPattern | string>();

function hatch(ctx: CanvasRenderingContext2D, color: string): CanvasPattern | string {
  let p = hatches.get(color);
  if (p === undefined) hatches.set(color, (p = hatchPattern(ctx, color)));
  return p;
}

function drawAxis(ctx: CanvasRenderingContext2D, layout: WaterfallLayout, palette: Palette, width: number): void {
  ctx.strokeStyle = palette.grid;
  ctx.globalAlpha = 0.6;
  for (const t of layout.ticks) {
    ctx.beginPath();
    ctx.moveTo(Math.round(t.x) + 0.5, 16);
    ctx.lineTo(Math.round(t.x) + 0.5, layout.height);
    ctx.stroke();
  }
  ctx.globalAlpha = 1;
  ctx.font = palette.font;
  ctx.textBaseline = 'top';
  ctx.textAlign = 'left';
  ctx.fillStyle = palette.muted;
  const measure = (text: string): number => ctx.measureText(text).width;
  const labels = tickLabelPlaces(layout.ticks, width, measure);
  for (const l of labels) ctx.fillText(l.text, l.left, 2);
  // What the axis reads and where, for the browser tests (the canvas has no DOM of its own).
  setData(
    ctx.canvas,
    'tickLabels',
    JSON.stringify(
      labels.map((l) => ({ text: l.text, x: Number(l.left.toFixed(1)), w: Number(measure(l.text).toFixed(1)) })),
    ),
  );
}

function drawBar(ctx: CanvasRenderingContext2D, bar: WaterfallBar, palette: Palette, slowest: boolean): void {
  const color = palette.phase[bar.phase];
  const background = bar.phase === 'stage';
  const reconstructed = bar.provenance === 'reconstructed';
  ctx.globalAlpha = background ? 0.14 : reconstructed ? 0.3 : 1;
  ctx.fillStyle = color;
  if (bar.phase === 'prefillDecode') {
    // Prefill and decode in one number: a fade from the prefill colour to the decode colour, not two bars.
    const fade = ctx.createLinearGradient(bar.x, 0, bar.x + bar.w, 0);
    fade.addColorStop(0, color);
    fade.addColorStop(1, palette.decodeEnd);
    ctx.fillStyle = fade;
  }
  ctx.fillRect(bar.x, bar.y, bar.w, bar.h);
  ctx.globalAlpha = 1;
  if (reconstructed) {
    ctx.fillStyle = hatch(ctx, color);
    ctx.fillRect(bar.x, bar.y, bar.w, bar.h);
    ctx.setLineDash([3, 2]);
  }
  if (reconstructed || background || palette.highContrast) {
    ctx.strokeStyle = background ? palette.muted : color;
    ctx.lineWidth = 1;
    ctx.strokeRect(bar.x + 0.5, bar.y + 0.5, Math.max(0, bar.w - 1), bar.h - 1);
  }
  ctx.setLineDash([]);
  if (slowest) {
    ctx.strokeStyle = palette.red;
    ctx.lineWidth = 2;
    ctx.strokeRect(bar.x - 1, bar.y - 1, bar.w + 2, bar.h + 2);
  }
}

/** The split value each phase segment draws; the whole stage and a one-output prefill+decode have none that can be inferred. */
const SEGMENT_SPLIT: Readonly<Partial<Record<WaterfallBar['phase'], SplitName>>> = {
  inputWait: 'inputWaitMs',
  readyQueued: 'readyQueuedMs',
  queued: 'queuedMs',
  prefill: 'prefillMs',
  decode: 'decodeMs',
};

/** A segment's duration, `≈` before one inferred from a hidden row, as the tables write it. */
function segmentText(bar: WaterfallBar, inferred: boolean): string {
  const text = formatDurationMs(bar.endMs - bar.startMs);
  return inferred ? `≈${text}` : text;
}

/** Each phase's duration where segmentLabelPlaces finds room; `labelled`: a bar whose duration the slow label gives. */
function segmentLabels(
  ctx: CanvasRenderingContext2D,
  layout: WaterfallLayout,
  palette: Palette,
  width: number,
  labelled: WaterfallBar | null,
  taken: readonly SlowLabelPlace[],
  inferred: (bar: WaterfallBar) => boolean,
): SegmentLabelPlace[] {
  ctx.font = palette.font;
  const wanted = layout.bars
    .filter((b) => b.phase !== 'stage' && b !== labelled)
    .map((bar) => {
      const text = segmentText(bar, inferred(bar));
      return { bar, text, textWidth: ctx.measureText(text).width };
    });
  return segmentLabelPlaces(wanted, layout.bars, { gutter: DEFAULT_BOX.gutter, width }, taken);
}

/** On a solid measured segment in the background colour; on a plate or beside it in the text colour. */
function drawSegmentLabel(ctx: CanvasRenderingContext2D, label: SegmentLabelPlace, palette: Palette): void {
  if (label.plate) {
    ctx.fillStyle = palette.background;
    ctx.fillRect(label.x, label.y, label.w, label.h);
  }
  ctx.font = palette.font;
  ctx.textBaseline = 'middle';
  ctx.fillStyle = label.where === 'inside' && !label.plate ? palette.background : palette.foreground;
  ctx.fillText(label.text, label.textX, label.y + label.h / 2);
}

interface SlowLabel {
  readonly text: string;
  readonly place: SlowLabelPlace;
}

/** The slowest bar's label and where slowLabelPlace puts it; null: no room anywhere. */
function slowLabel(
  ctx: CanvasRenderingContext2D,
  layout: WaterfallLayout,
  bar: WaterfallBar,
  palette: Palette,
  width: number,
): SlowLabel | null {
  const text = `${SLOWEST_PHASE_TEXT}: ${PHASE_LABEL[bar.phase]} ${formatDurationMs(bar.endMs - bar.startMs)}`;
  ctx.font = `bold ${palette.font}`;
  const place = slowLabelPlace(bar, ctx.measureText(text).width, { gutter: DEFAULT_BOX.gutter, width }, layout.bars);
  return place === null ? null : { text, place };
}

/** The label, on a solid plate where it would otherwise be text over hatching or other bars. */
function drawSlowLabel(ctx: CanvasRenderingContext2D, { text, place }: SlowLabel, palette: Palette): void {
  if (place.plate) {
    ctx.fillStyle = palette.background;
    ctx.fillRect(place.x, place.y, place.w, place.h);
    ctx.strokeStyle = palette.red;
    ctx.lineWidth = 1;
    ctx.strokeRect(place.x + 0.5, place.y + 0.5, place.w - 1, place.h - 1);
  }
  ctx.font = `bold ${palette.font}`;
  ctx.fillStyle = place.inside && !place.plate ? palette.background : palette.red;
  ctx.textBaseline = 'middle';
  ctx.fillText(text, place.textX, place.y + place.h / 2);
}

/** A hand-off: its parts side by side on the line between two lanes, dashed (its position is assumed). */
function drawHandoff(ctx: CanvasRenderingContext2D, handoff: WaterfallHandoff, palette: Palette): void {
  handoff.parts.forEach((part, i) => {
    ctx.globalAlpha = i % 2 === 0 ? 0.85 : 0.5;
    ctx.fillStyle = palette.handoff;
    ctx.fillRect(part.x, handoff.y, part.w, handoff.h);
  });
  ctx.globalAlpha = 1;
  ctx.setLineDash([3, 2]);
  ctx.strokeStyle = palette.handoff;
  ctx.lineWidth = 1;
  ctx.strokeRect(handoff.x + 0.5, handoff.y + 0.5, Math.max(0, handoff.w - 1), handoff.h - 1);
  ctx.setLineDash([]);
}

/** Hover text of a hand-off: each part with its field, the size, and how it was placed. */
export function handoffText(handoff: WaterfallHandoff, stageNames: Readonly<Record<string, string>>): string {
  const parts = handoff.parts.map((p) => `${p.label} ${formatDurationMs(p.ms)} (${p.field})`).join(', ');
  const size =
    handoff.sizeKb === null ? '' : `, ${handoff.sizeKb.toLocaleString('en-US', { maximumFractionDigits: 1 })} KB`;
  return `${stageLabel(handoff.fromKey, stageNames)} → ${stageLabel(handoff.toKey, stageNames)} hand-off: ${parts}${size}\nReconstructed position: ${HANDOFF_RULE}`;
}

function clip(ctx: CanvasRenderingContext2D, text: string, max: number): string {
  if (ctx.measureText(text).width <= max) return text;
  let t = text;
  while (t.length > 1 && ctx.measureText(`${t}…`).width > max) t = t.slice(0, -1);
  return `${t}…`;
}

/** The picture in words, for screen readers (the facts table has the numbers too). */
function describe(layout: WaterfallLayout, stageNames: Readonly<Record<string, string>>): string {
  const lanes = layout.lanes.map((lane) => {
    const phases = layout.bars
      .filter((b) => b.stageKey === lane.stageKey && b.phase !== 'stage')
      .map(
        (b) =>
          `${PHASE_LABEL[b.phase]} ${formatDurationMs(b.endMs - b.startMs)}${b.provenance === 'reconstructed' ? ' (reconstructed)' : ''}`,
      );
    return `${stageLabel(lane.stageKey, stageNames)}: ${phases.length === 0 ? 'no phases' : phases.join(', ')}`;
  });
  const sentence = sentenceCase(SLOWEST_PHASE_TEXT);
  const handoffs = layout.handoffs
    .map(
      (h) =>
        ` Hand-off ${edgeLabel(h.edge)}: ${h.parts.map((p) => `${p.label} ${formatDurationMs(p.ms)}`).join(', ')} (position assumed).`,
    )
    .join('');
  const slow =
    layout.slowest === null
      ? ''
      : ` ${sentence}: ${stageLabel(layout.slowest.stageKey, stageNames)} ${PHASE_LABEL[layout.slowest.phase]}.`;
  return `Request timeline. ${lanes.join('; ')}.${slow}${handoffs}`;
}
