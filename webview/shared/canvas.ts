// Canvas plumbing shared by the charts: device-pixel sizing, the hatch pattern that
// marks reconstructed (not measured) segments, and sparklines with gaps.
import type { SparkPoint } from './sparkline';

/** Size the canvas backing store for the device pixel ratio; returns a context in CSS pixels. */
export function fitCanvas(canvas: HTMLCanvasElement, cssWidth: number, cssHeight: number): CanvasRenderingContext2D {
  const dpr = window.devicePixelRatio || 1;
  const w = Math.max(1, Math.round(cssWidth * dpr));
  const hgt = Math.max(1, Math.round(cssHeight * dpr));
  if (canvas.width !== w) canvas.width = w;
  if (canvas.height !== hgt) canvas.height = hgt;
  canvas.style.width = `${cssWidth}px`;
  canvas.style.height = `${cssHeight}px`;
  const ctx = canvas.getContext('2d') as CanvasRenderingContext2D;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, cssWidth, cssHeight);
  return ctx;
}

/**
 * `text` broken at spaces into lines of at most `maxWidth` CSS px in `ctx`'s font: a canvas
 * clips a line it cannot fit, so a message drawn on a narrow chart is wrapped, not cut.
 * A word wider than `maxWidth` keeps a line of its own.
 */
export function wrapText(ctx: CanvasRenderingContext2D, text: string, maxWidth: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const next = line === '' ? word : `${line} ${word}`;
    if (line !== '' && ctx.measureText(next).width > maxWidth) {
      lines.push(line);
      line = word;
    } else line = next;
  }
  if (line !== '') lines.push(line);
  return lines;
}

/** Diagonal stripes of `color` on transparent: drawn over a pale fill for reconstructed segments. */
export function hatchPattern(ctx: CanvasRenderingContext2D, color: string): CanvasPattern | string {
  const tile = document.createElement('canvas');
  tile.width = 8;
  tile.height = 8;
  const t = tile.getContext('2d');
  if (t === null) return color;
  t.strokeStyle = color;
  t.lineWidth = 2;
  t.beginPath();
  t.moveTo(-2, 10);
  t.lineTo(10, -2);
  t.moveTo(-2, 2);
  t.lineTo(2, -2);
  t.moveTo(6, 10);
  t.lineTo(10, 6);
  t.stroke();
  return ctx.createPattern(tile, 'repeat') ?? color;
}

/** Track an element's size; calls back with its content box (CSS px) and on each change. */
export function observeSize(el: HTMLElement, callback: (width: number, height: number) => void): void {
  const ro = new ResizeObserver((entries) => {
    const box = entries[entries.length - 1]?.contentRect;
    if (box !== undefined) callback(box.width, box.height);
  });
  ro.observe(el);
}

/** A line through the points, lifted at each null (a value not measured is a gap, not a dip to 0). */
export function strokeGappedLine(
  ctx: CanvasRenderingContext2D,
  points: readonly (SparkPoint | null)[],
  color: string,
): void {
  ctx.strokeStyle = color;
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  let pen = false;
  for (const p of points) {
    if (p === null) {
      pen = false;
      continue;
    }
    if (pen) ctx.lineTo(p.x, p.y);
    else ctx.moveTo(p.x, p.y);
    pen = true;
  }
  ctx.stroke();
  // A point between two gaps draws no line: a dot, so a measured value never vanishes.
  ctx.fillStyle = color;
  points.forEach((p, i) => {
    if (p !== null && (points[i - 1] ?? null) === null && (points[i + 1] ?? null) === null)
      ctx.fillRect(p.x - 1.5, p.y - 1.5, 3, 3);
  });
}
