// Where each phase segment's duration label goes on the request timeline. Text over hatching
// (a reconstructed, not measured segment) cannot be read, so a label there sits on a solid
// plate; a label too wide for its segment goes beside it, on its row, where no other segment
// or label is; one that fits nowhere is left out (the segment's tooltip still gives the value).
// DOM-free.
import type { WaterfallBar, WaterfallBox } from './waterfallLayout';

export interface LabelBox {
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
}

/** A segment's label before placing: its text and the text's width in px. */
export interface SegmentLabelText {
  readonly bar: WaterfallBar;
  readonly text: string;
  readonly textWidth: number;
}

export interface SegmentLabelPlace extends LabelBox {
  readonly bar: WaterfallBar;
  readonly text: string;
  readonly textX: number;
  /** In its own segment, or beside it on the same row. */
  readonly where: 'inside' | 'beside';
  /** On a solid plate of the background colour: without it the text would lie over hatching. */
  readonly plate: boolean;
}

/** Padding either side of the text, inside its box. */
const PAD = 3;
/** Air between a segment and a label beside it. */
const GAP = 4;

function overlaps(a: LabelBox, b: LabelBox): boolean {
  return a.x < b.x + b.w && a.x + a.w > b.x && a.y < b.y + b.h && a.y + a.h > b.y;
}

/**
 * Places each wanted label, in order: inside its segment when the text fits there (on a plate
 * when the segment is hatched), else right of it, else left of it, clear of every other phase
 * segment, of the labels placed before it and of `taken` (the slowest phase's label). A label
 * beside its segment gets a plate where it lies over a hatched whole-stage bar. Boxes stay
 * between the gutter of stage names and the canvas's right edge. `bars`: every bar of the
 * layout.
 */
export function segmentLabelPlaces(
  wanted: readonly SegmentLabelText[],
  bars: readonly WaterfallBar[],
  box: Pick<WaterfallBox, 'gutter' | 'width'>,
  taken: readonly LabelBox[] = [],
): SegmentLabelPlace[] {
  const phases = bars.filter((b) => b.phase !== 'stage');
  const hatchedStages = bars.filter((b) => b.phase === 'stage' && b.provenance === 'reconstructed');
  const placed: SegmentLabelPlace[] = [];
  const used: LabelBox[] = [...taken];
  for (const { bar, text, textWidth } of wanted) {
    const w = textWidth + 2 * PAD;
    const y = bar.y + 1;
    const h = Math.max(0, bar.h - 2);
    const free = (b: LabelBox): boolean =>
      b.x >= box.gutter &&
      b.x + b.w <= box.width &&
      !used.some((u) => overlaps(b, u)) &&
      !phases.some((p) => p !== bar && overlaps(b, p));
    const at = (x: number, where: SegmentLabelPlace['where'], plate: boolean): SegmentLabelPlace => ({
      bar,
      text,
      x,
      y,
      w,
      h,
      textX: x + PAD,
      where,
      plate,
    });
    const inside = at(bar.x + 1, 'inside', bar.provenance === 'reconstructed');
    const fitsInside = inside.x + inside.w <= bar.x + bar.w - 1;
    const beside = [at(bar.x + bar.w + GAP, 'beside', false), at(bar.x - GAP - w, 'beside', false)].map((p) => ({
      ...p,
      plate: hatchedStages.some((s) => overlaps(p, s)),
    }));
    const place = [...(fitsInside ? [inside] : []), ...beside].find(free);
    if (place === undefined) continue;
    placed.push(place);
    used.push(place);
  }
  return placed;
}
