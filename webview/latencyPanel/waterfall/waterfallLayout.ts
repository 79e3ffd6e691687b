// Geometry of one request's waterfall: one lane per stage, the whole stage as a pale
// bar behind its phase segments, time in ms from the request's arrival. Stages keep the
// positions the server side computed (they overlap under async chunk). DOM-free.
import type { RequestDetail, TimelineSegment } from '../../../server/protocol';
import type { LinearScale } from '../../shared/axis';
import { durationAxis, LABEL_EDGE_PX, placeTickLabels, project, scale } from '../../shared/axis';
import type { TimelinePhase } from '../../shared/labels';
import { stageLabel } from '../../shared/labels';
import { firstStageIdOf, isRankedSegment, maxOf } from '../../../server/shared';

export interface WaterfallBox {
  readonly width: number;
  /** Left gutter for the stage labels. */
  readonly gutter: number;
  readonly laneHeight: number;
  /** Space above the first lane for the axis. */
  readonly axisHeight: number;
  readonly rightPad: number;
}

export const DEFAULT_BOX: Omit<WaterfallBox, 'width'> = { gutter: 150, laneHeight: 34, axisHeight: 22, rightPad: 16 };

export interface WaterfallBar {
  readonly stageKey: string;
  readonly phase: TimelinePhase;
  readonly provenance: TimelineSegment['provenance'];
  readonly rule: string;
  readonly startMs: number;
  readonly endMs: number;
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
}

export interface WaterfallLane {
  readonly stageKey: string;
  readonly label: string;
  readonly y: number;
  readonly h: number;
}

export interface RuleNote {
  readonly stageKey: string;
  readonly rule: string;
}

/** One timed part of a hand-off, in the order the payload goes through them. */
export interface HandoffPart {
  readonly label: 'send' | 'in flight' | 'receive+decode' | 'send ([OmniTiming])';
  /** The field it comes from (`tx_time_ms`...). */
  readonly field: string;
  readonly ms: number;
  readonly x: number;
  readonly w: number;
}

/**
 * A transfer edge drawn between its two stages' lanes: its measured durations (send, in
 * flight, receive+decode) placed from the upstream stage's end, a position assumed (the log
 * gives no start time for a transfer).
 */
export interface WaterfallHandoff {
  readonly edge: string;
  readonly fromKey: string;
  readonly toKey: string;
  readonly startMs: number;
  readonly endMs: number;
  readonly sizeKb: number | null;
  readonly parts: readonly HandoffPart[];
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
}

/** An edge the request names without a timed payload transfer: said in words, not drawn. */
export interface HandoffNote {
  readonly edge: string;
  readonly text: string;
}

export const HANDOFF_RULE =
  "assumed: a hand-off is drawn from where the upstream stage ends (the orchestrator forwards a stage's output when it finishes); its durations are the TransferEdgeStats values (send, in flight, receive+decode)";

/** A tick of the time axis and its label, in the one unit the whole axis is labelled in. */
export interface WaterfallTick {
  readonly x: number;
  readonly ms: number;
  readonly label: string;
}

export interface WaterfallLayout {
  readonly lanes: readonly WaterfallLane[];
  /** Whole-stage bars first, phases after (drawing order). */
  readonly bars: readonly WaterfallBar[];
  readonly ticks: readonly WaterfallTick[];
  readonly maxMs: number;
  readonly height: number;
  readonly x: LinearScale;
  /** The slowest phase (slowest.ts: the longest single-phase segment; prefill+decode is not ranked), highlighted. */
  readonly slowest: WaterfallBar | null;
  /** Phases present, in drawing-legend order. */
  readonly phases: readonly TimelinePhase[];
  /** Rules of the reconstructed segments, one per stage and rule. */
  readonly reconstructed: readonly RuleNote[];
  /** Rules of the measured (anchored) segments. */
  readonly anchored: readonly RuleNote[];
  /** Transfer edges with timed parts, drawn between their stages' lanes. */
  readonly handoffs: readonly WaterfallHandoff[];
  /** Edges without a timed payload transfer (e.g. [OmniTiming] 0.00 under async chunk). */
  readonly handoffNotes: readonly HandoffNote[];
}

const HANDOFF_FIELDS: readonly { readonly field: string; readonly label: HandoffPart['label'] }[] = [
  { field: 'tx_time_ms', label: 'send' },
  { field: 'in_flight_time_ms', label: 'in flight' },
  { field: 'rx_decode_time_ms', label: 'receive+decode' },
];

interface PlannedHandoff {
  readonly edge: string;
  readonly fromKey: string;
  readonly toKey: string;
  readonly startMs: number;
  readonly sizeKb: number | null;
  readonly parts: readonly { readonly label: HandoffPart['label']; readonly field: string; readonly ms: number }[];
}

/** Where each edge's hand-off goes, in ms; edges without timed parts become notes. */
function planHandoffs(detail: RequestDetail): { planned: PlannedHandoff[]; notes: HandoffNote[] } {
  const planned: PlannedHandoff[] = [];
  const notes: HandoffNote[] = [];
  for (const t of detail.request.transfers ?? []) {
    const from = detail.request.stages
      .filter((s) => s.stageId === t.fromStage)
      .sort((a, b) => b.segment - a.segment)[0];
    const to = detail.request.stages.filter((s) => s.stageId === t.toStage).sort((a, b) => a.segment - b.segment)[0];
    const parts: { label: HandoffPart['label']; field: string; ms: number }[] = [];
    for (const f of HANDOFF_FIELDS) {
      const cell = t.fields[f.field];
      if (cell !== undefined && cell.state === 'measured' && Number.isFinite(cell.value) && cell.value >= 0)
        parts.push({ label: f.label, field: f.field, ms: cell.value });
    }
    if (parts.length === 0 && t.omniTimingTxState === 'measured' && t.omniTimingTxMs !== null && t.omniTimingTxMs > 0)
      parts.push({ label: 'send ([OmniTiming])', field: '[OmniTiming] transfers', ms: t.omniTimingTxMs });
    if (parts.length === 0 || from === undefined || to === undefined) {
      const why =
        t.omniTimingTxState === 'notRecorded'
          ? 'no payload transfer recorded ([OmniTiming] prints 0.00 for every downstream stage; under async chunk the input streams through the connector)'
          : from === undefined || to === undefined
            ? 'a stage of this edge is not in the request'
            : 'no timed part printed';
      notes.push({ edge: t.edge, text: why });
      continue;
    }
    const startMs = Math.max(
      0,
      ...detail.timeline.filter((s) => s.stageKey === from.stageKey && Number.isFinite(s.endMs)).map((s) => s.endMs),
    );
    const size = t.fields['size_kbytes'];
    planned.push({
      edge: t.edge,
      fromKey: from.stageKey,
      toKey: to.stageKey,
      startMs,
      sizeKb: size !== undefined && size.state === 'measured' ? size.value : null,
      parts,
    });
  }
  return { planned, notes };
}

const PHASE_ORDER: readonly TimelinePhase[] = [
  'inputWait',
  'readyQueued',
  'queued',
  'prefill',
  'decode',
  'prefillDecode',
  'stage',
];

function stageOrder(detail: RequestDetail): string[] {
  const keys = [...detail.request.stages]
    .sort((a, b) => (a.stageId ?? 0) - (b.stageId ?? 0) || a.segment - b.segment)
    .map((s) => s.stageKey);
  for (const seg of detail.timeline) if (!keys.includes(seg.stageKey)) keys.push(seg.stageKey);
  return keys;
}

function notes(segments: readonly TimelineSegment[], provenance: TimelineSegment['provenance']): RuleNote[] {
  const seen = new Set<string>();
  const out: RuleNote[] = [];
  for (const s of segments) {
    const key = `${s.stageKey}\u0000${s.rule}`;
    if (s.provenance !== provenance || seen.has(key)) continue;
    seen.add(key);
    out.push({ stageKey: s.stageKey, rule: s.rule });
  }
  return out;
}

export function waterfallLayout(
  detail: RequestDetail,
  stageNames: Readonly<Record<string, string>>,
  box: WaterfallBox,
): WaterfallLayout {
  const order = stageOrder(detail);
  const lanes: WaterfallLane[] = order.map((stageKey, i) => ({
    stageKey,
    label: stageLabel(stageKey, stageNames),
    y: box.axisHeight + i * box.laneHeight,
    h: box.laneHeight,
  }));
  const laneOf = new Map(lanes.map((l) => [l.stageKey, l]));
  const segments = detail.timeline.filter(
    (s) => Number.isFinite(s.startMs) && Number.isFinite(s.endMs) && s.endMs >= s.startMs,
  );
  const { planned, notes: handoffNotes } = planHandoffs(detail);
  const handoffEnd = (p: PlannedHandoff): number => p.startMs + p.parts.reduce((n, x) => n + x.ms, 0);
  const rawMax = maxOf(
    maxOf(
      0,
      segments.map((s) => s.endMs),
    ),
    planned.map(handoffEnd),
  );
  // One unit for the whole axis, chosen as Over Time's duration axes choose it.
  const axis = durationAxis(rawMax, 6);
  const maxMs = axis.max;
  const x = scale(0, maxMs, box.gutter, Math.max(box.gutter + 1, box.width - box.rightPad));
  const bar = (s: TimelineSegment): WaterfallBar => {
    const lane = laneOf.get(s.stageKey) as WaterfallLane;
    const background = s.phase === 'stage';
    const inset = background ? 4 : 9;
    const x0 = project(x, s.startMs);
    const x1 = project(x, s.endMs);
    // A measured 0 keeps a 1 px mark so that it is seen as present.
    return {
      stageKey: s.stageKey,
      phase: s.phase,
      provenance: s.provenance,
      rule: s.rule,
      startMs: s.startMs,
      endMs: s.endMs,
      x: x0,
      y: lane.y + inset,
      w: Math.max(1, x1 - x0),
      h: lane.h - 2 * inset,
    };
  };
  const backgrounds = segments.filter((s) => s.phase === 'stage').map(bar);
  const phases = segments.filter((s) => s.phase !== 'stage').map(bar);
  // A downstream stage's wait for its input is the upstream stages' time seen again: not ranked.
  const firstStageId = firstStageIdOf(detail.request.stages);
  const downstream = new Set(
    detail.request.stages.filter((s) => s.stageId !== null && s.stageId > firstStageId).map((s) => s.stageKey),
  );
  let slowest: WaterfallBar | null = null;
  for (const b of phases)
    if (
      isRankedSegment(b.phase, downstream.has(b.stageKey)) &&
      b.endMs - b.startMs > 0 &&
      (slowest === null || b.endMs - b.startMs > slowest.endMs - slowest.startMs)
    )
      slowest = b;
  const present = new Set(segments.map((s) => s.phase));
  // A hand-off sits on the line between its upstream lane and the next one.
  const handoffs: WaterfallHandoff[] = [];
  for (const p of planned) {
    const lane = laneOf.get(p.fromKey);
    if (lane === undefined || !laneOf.has(p.toKey)) continue;
    let t = p.startMs;
    const parts: HandoffPart[] = p.parts.map((part) => {
      const x0 = project(x, t);
      t += part.ms;
      return { ...part, x: x0, w: Math.max(1, project(x, t) - x0) };
    });
    const x0 = project(x, p.startMs);
    handoffs.push({
      edge: p.edge,
      fromKey: p.fromKey,
      toKey: p.toKey,
      startMs: p.startMs,
      endMs: t,
      sizeKb: p.sizeKb,
      parts,
      x: x0,
      y: lane.y + lane.h - 4,
      w: Math.max(2, project(x, t) - x0),
      h: 8,
    });
  }
  return {
    lanes,
    bars: [...backgrounds, ...phases],
    ticks: axis.ticks.map((ms) => ({ ms, x: project(x, ms), label: axis.format(ms) })),
    maxMs,
    height: box.axisHeight + lanes.length * box.laneHeight + 4,
    x,
    slowest,
    phases: PHASE_ORDER.filter((p) => present.has(p)),
    reconstructed: notes(segments, 'reconstructed'),
    anchored: notes(segments, 'measured'),
    handoffs,
    handoffNotes,
  };
}

/** A tick label to draw: its text and the x of its left edge. */
export interface PlacedTickLabel {
  readonly text: string;
  readonly left: number;
}

/**
 * The tick labels that fit, each whole within the canvas `width` px wide (the last one,
 * centred on its tick at the right edge, would be cut) and none over another. `measure`: a
 * text's width in px.
 */
export function tickLabelPlaces(
  ticks: readonly WaterfallTick[],
  width: number,
  measure: (text: string) => number,
): PlacedTickLabel[] {
  const lefts = placeTickLabels(
    ticks.map((t) => ({ x: t.x, width: measure(t.label) })),
    LABEL_EDGE_PX,
    width - LABEL_EDGE_PX,
  );
  const out: PlacedTickLabel[] = [];
  ticks.forEach((t, i) => {
    const left = lefts[i];
    if (left !== null && left !== undefined) out.push({ text: t.label, left });
  });
  return out;
}

/** The hand-off under a point, or null. */
export function handoffAt(layout: WaterfallLayout, px: number, py: number): WaterfallHandoff | null {
  for (const h of layout.handoffs)
    if (px >= h.x - 2 && px <= h.x + h.w + 2 && py >= h.y - 2 && py <= h.y + h.h + 2) return h;
  return null;
}

/** The bar under a point: phases (drawn on top) before whole-stage bars. */
export function barAt(layout: WaterfallLayout, px: number, py: number): WaterfallBar | null {
  for (let i = layout.bars.length - 1; i >= 0; i--) {
    const b = layout.bars[i] as WaterfallBar;
    if (px >= b.x - 1 && px <= b.x + b.w + 1 && py >= b.y && py <= b.y + b.h) return b;
  }
  return null;
}

/** Where the slowest bar's label goes: its box (text plus padding) and where its text starts. */
export interface SlowLabelPlace {
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
  readonly textX: number;
  /** Inside the slowest bar itself, instead of its duration. */
  readonly inside: boolean;
  /** Drawn on a solid plate: the only room left is over a bar, and hatching under text is unreadable. */
  readonly plate: boolean;
}

/** Padding either side of the label's text, inside its box. */
const LABEL_PAD = 3;

/**
 * Where the "slowest: prefill 9.16 s" label of the slowest bar goes, `textWidth` px wide, on
 * the bar's own row, its box always between the gutter of stage names and the canvas's right
 * edge. In order: beside the bar (right, then left) clear of other bars; inside the bar when
 * it is solid (measured) and wide enough; then on a solid plate, inside the bar when it is
 * hatched (the label names that bar), else beside it over its neighbours; else nowhere (the
 * red outline and the legend still mark it). `bars`: every bar of the layout; other phase
 * bars and hatched (reconstructed) stage bars count as in the way, pale measured stage bars
 * do not. DOM-free.
 */
export function slowLabelPlace(
  bar: WaterfallBar,
  textWidth: number,
  box: Pick<WaterfallBox, 'gutter' | 'width'>,
  bars: readonly WaterfallBar[] = [],
): SlowLabelPlace | null {
  const gap = 6;
  const w = textWidth + 2 * LABEL_PAD;
  const { y, h } = bar;
  const at = (textX: number, inside: boolean, plate: boolean): SlowLabelPlace => ({
    x: textX - LABEL_PAD,
    y,
    w,
    h,
    textX,
    inside,
    plate,
  });
  const onCanvas = (p: SlowLabelPlace): boolean => p.x >= box.gutter && p.x + p.w <= box.width;
  const inTheWay = bars.filter((b) => b !== bar && (b.phase !== 'stage' || b.provenance === 'reconstructed'));
  const clear = (p: SlowLabelPlace): boolean =>
    !inTheWay.some((b) => p.x < b.x + b.w && p.x + p.w > b.x && p.y < b.y + b.h && p.y + p.h > b.y);
  const beside = [at(bar.x + bar.w + gap, false, false), at(bar.x - gap - textWidth, false, false)].filter(onCanvas);
  const open = beside.find(clear);
  if (open !== undefined) return open;
  const fitsInside = w <= bar.w && onCanvas(at(bar.x + LABEL_PAD, true, false));
  if (fitsInside) return at(bar.x + LABEL_PAD, true, bar.provenance === 'reconstructed');
  const crowded = beside[0];
  return crowded === undefined ? null : { ...crowded, plate: true };
}

/**
 * A placement rule as a person reads it: the timeline's rule ids ("anchored: start =
 * serving_time_to_first_output_ms - prefill - queued", "assumed: drawn after ...") in words.
 */
export function placementWords(rule: string): string {
  if (rule.startsWith('anchored'))
    return "placed from the stage's measured time to first output (start = first output − prefill − queued)";
  return rule.replace(/^assumed: /, '');
}
