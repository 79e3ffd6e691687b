// Geometry of one request's waterfall: one lane per stage, the whole stage as a pale
// bar behind its phase segments, time in ms from the request's arrival. Stages keep the
// positions the server side computed (they overlap under async chunk). DOM-free.
import type { RequestDetail, TimelineSegment } from '../../../server/protocol';
import type { LinearScale } from '../../shared/axis';
import { niceMax, niceTicks, project, scale } from '../../shared/axis';
import type { TimelinePhase } from '../../shared/labels';
import { stageLabel } from '../../shared/labels';
import { isRankedSegment } from '../../../server/core/analysis/slowest';

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

export interface WaterfallLayout {
  readonly lanes: readonly WaterfallLane[];
  /** Whole-stage bars first, phases after (drawing order). */
  readonly bars: readonly WaterfallBar[];
  readonly ticks: readonly { readonly x: number; readonly ms: number }[];
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
}

const PHASE_ORDER: readonly TimelinePhase[] = ['inputWait', 'readyQueued', 'queued', 'prefill', 'decode', 'prefillDecode', 'stage'];

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

export function waterfallLayout(detail: RequestDetail, stageNames: Readonly<Record<string, string>>, box: WaterfallBox): WaterfallLayout {
  const order = stageOrder(detail);
  const lanes: WaterfallLane[] = order.map((stageKey, i) => ({
    stageKey,
    label: stageLabel(stageKey, stageNames),
    y: box.axisHeight + i * box.laneHeight,
    h: box.laneHeight,
  }));
  const laneOf = new Map(lanes.map((l) => [l.stageKey, l]));
  const segments = detail.timeline.filter((s) => Number.isFinite(s.startMs) && Number.isFinite(s.endMs) && s.endMs >= s.startMs);
  const rawMax = Math.max(0, ...segments.map((s) => s.endMs));
  const maxMs = niceMax(rawMax, 6);
  const x = scale(0, maxMs, box.gutter, Math.max(box.gutter + 1, box.width - box.rightPad));
  const bar = (s: TimelineSegment): WaterfallBar => {
    const lane = laneOf.get(s.stageKey) as WaterfallLane;
    const background = s.phase === 'stage';
    const inset = background ? 4 : 9;
    const x0 = project(x, s.startMs);
    const x1 = project(x, s.endMs);
    // A measured 0 keeps a 1 px mark so that it is seen as present.
    return { stageKey: s.stageKey, phase: s.phase, provenance: s.provenance, rule: s.rule, startMs: s.startMs, endMs: s.endMs, x: x0, y: lane.y + inset, w: Math.max(1, x1 - x0), h: lane.h - 2 * inset };
  };
  const backgrounds = segments.filter((s) => s.phase === 'stage').map(bar);
  const phases = segments.filter((s) => s.phase !== 'stage').map(bar);
  let slowest: WaterfallBar | null = null;
  for (const b of phases) if (isRankedSegment(b.phase) && b.endMs - b.startMs > 0 && (slowest === null || b.endMs - b.startMs > slowest.endMs - slowest.startMs)) slowest = b;
  const present = new Set(segments.map((s) => s.phase));
  return {
    lanes,
    bars: [...backgrounds, ...phases],
    ticks: niceTicks(0, maxMs, Math.max(2, Math.floor((box.width - box.gutter) / 90))).map((ms) => ({ ms, x: project(x, ms) })),
    maxMs,
    height: box.axisHeight + lanes.length * box.laneHeight + 4,
    x,
    slowest,
    phases: PHASE_ORDER.filter((p) => present.has(p)),
    reconstructed: notes(segments, 'reconstructed'),
    anchored: notes(segments, 'measured'),
  };
}

/** The bar under a point: phases (drawn on top) before whole-stage bars. */
export function barAt(layout: WaterfallLayout, px: number, py: number): WaterfallBar | null {
  for (let i = layout.bars.length - 1; i >= 0; i--) {
    const b = layout.bars[i] as WaterfallBar;
    if (px >= b.x - 1 && px <= b.x + b.w + 1 && py >= b.y && py <= b.y + b.h) return b;
  }
  return null;
}
