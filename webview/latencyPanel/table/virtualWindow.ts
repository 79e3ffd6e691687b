// Which rows of a virtualized list are in the DOM, and where. DOM-free.
// The scroll container holds a spacer of total × rowHeight pixels; only the rows in
// view (plus overscan) exist. Browsers cap an element's height (~16.7M px in some
// engines), so past `maxSpacerPx` the spacer is capped and scrollTop is mapped
// proportionally onto the rows ("scaled" mode).

export interface WindowInput {
  readonly scrollTop: number;
  readonly viewportHeight: number;
  readonly rowHeight: number;
  readonly total: number;
  /** Rows rendered beyond the viewport, before it (and after it unless overscanAfter is given). */
  readonly overscan: number;
  readonly overscanAfter?: number;
  readonly maxSpacerPx?: number;
}

export interface RowWindow {
  /** First row index rendered. */
  readonly first: number;
  /** One past the last row index rendered. */
  readonly end: number;
  /** Pixel offset of row `first` inside the spacer. */
  readonly offsetY: number;
  readonly spacerHeight: number;
  readonly scaled: boolean;
}

export const DEFAULT_MAX_SPACER_PX = 8_000_000;

function clamp(v: number, lo: number, hi: number): number {
  return Math.max(lo, Math.min(hi, v));
}

/** Virtual pixel position of the viewport's top edge in an unscaled list. */
function virtualTop(input: WindowInput, spacerHeight: number, fullHeight: number): number {
  if (spacerHeight === fullHeight) return input.scrollTop;
  const scrollable = Math.max(1, spacerHeight - input.viewportHeight);
  const fullScrollable = Math.max(0, fullHeight - input.viewportHeight);
  return (clamp(input.scrollTop, 0, scrollable) / scrollable) * fullScrollable;
}

export function rowWindow(input: WindowInput): RowWindow {
  const { rowHeight, total, overscan, viewportHeight } = input;
  const fullHeight = total * rowHeight;
  const maxSpacer = input.maxSpacerPx ?? DEFAULT_MAX_SPACER_PX;
  const spacerHeight = Math.min(fullHeight, maxSpacer);
  const scaled = spacerHeight < fullHeight;
  if (total === 0 || rowHeight <= 0) return { first: 0, end: 0, offsetY: 0, spacerHeight, scaled };
  const top = virtualTop(input, spacerHeight, fullHeight);
  const visibleFirst = clamp(Math.floor(top / rowHeight), 0, total - 1);
  const visibleEnd = clamp(Math.ceil((top + viewportHeight) / rowHeight), visibleFirst + 1, total);
  const first = Math.max(0, visibleFirst - overscan);
  const end = Math.min(total, visibleEnd + (input.overscanAfter ?? overscan));
  // Unscaled, rows sit at their own position; scaled, they are placed relative to the viewport.
  const offsetY = scaled ? clamp(input.scrollTop, 0, spacerHeight) - (top - first * rowHeight) : first * rowHeight;
  return { first, end, offsetY, spacerHeight, scaled };
}

/** Rows fully or partly in view (no overscan). */
export function visibleRange(input: WindowInput): { first: number; end: number } {
  const w = rowWindow({ ...input, overscan: 0 });
  return { first: w.first, end: w.end };
}

/**
 * The scrollTop that brings row `index` fully into view, or null when it already is.
 * Works in scaled mode by inverting the proportional mapping.
 */
export function scrollTopToReveal(input: WindowInput, index: number): number | null {
  const { rowHeight, total, viewportHeight } = input;
  if (total === 0) return null;
  const fullHeight = total * rowHeight;
  const maxSpacer = input.maxSpacerPx ?? DEFAULT_MAX_SPACER_PX;
  const spacerHeight = Math.min(fullHeight, maxSpacer);
  const top = virtualTop(input, spacerHeight, fullHeight);
  const rowTop = clamp(index, 0, total - 1) * rowHeight;
  let wanted: number;
  if (rowTop < top) wanted = rowTop;
  else if (rowTop + rowHeight > top + viewportHeight) wanted = rowTop + rowHeight - viewportHeight;
  else return null;
  if (spacerHeight === fullHeight) return Math.max(0, wanted);
  const scrollable = Math.max(1, spacerHeight - viewportHeight);
  const fullScrollable = Math.max(1, fullHeight - viewportHeight);
  return clamp((wanted / fullScrollable) * scrollable, 0, scrollable);
}

/** Indices of the pages (of `pageSize` rows) that cover rows [first, end). */
export function pagesCovering(first: number, end: number, pageSize: number): number[] {
  if (end <= first) return [];
  const out: number[] = [];
  for (let p = Math.floor(first / pageSize); p <= Math.floor((end - 1) / pageSize); p++) out.push(p);
  return out;
}
