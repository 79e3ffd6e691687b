// A sparkline of the headline latency over the live updates of one session (own canvas: at
// most 60 points, a chart library would be more code than the line). It is given one
// session's points (state.ts trendOf): values of two sessions are never joined. Its height
// is drawn from 0 (shared/sparkline.ts), so a small change looks small.
import type { Percentile } from '../../server/protocol';
import { fitCanvas, strokeGappedLine } from '../shared/canvas';
import { h, setText, setTitle } from '../shared/dom';
import { formatDurationMs } from '../shared/format';
import { sparklinePoints } from '../shared/sparkline';
import { readPalette } from '../shared/theme';
import type { TrendPoint } from './state';

const WIDTH = 120;
const HEIGHT = 26;

export class Trend {
  readonly el: HTMLElement;
  private readonly canvas = h('canvas', { testId: 'trend', attrs: { role: 'img' } });
  private readonly value = h('span', { className: 'trend-value', testId: 'trend-value' });
  private readonly label = h('span', { className: 'trend-label muted' });
  private points: readonly TrendPoint[] = [];
  private pct: Percentile = 'p50';

  constructor() {
    this.el = h(
      'div',
      { className: 'trend' },
      this.canvas,
      h('div', { className: 'trend-text' }, this.value, this.label),
    );
  }

  /**
   * `label`: the headline's words with its percentile (summaryModel's trendLabel); '' before one.
   * `points`: the trend of `sessionId` only.
   */
  update(points: readonly TrendPoint[], pct: Percentile, label: string, sessionId: string): void {
    this.points = points;
    this.pct = pct;
    const last = points[points.length - 1];
    const v = last?.[pct] ?? null;
    setText(this.value, v === null ? '—' : formatDurationMs(v));
    setText(this.label, label === '' ? 'no headline latency yet' : label);
    const desc = `Trend of ${label} over the last ${points.length} updates`;
    this.canvas.setAttribute('aria-label', desc);
    this.canvas.dataset['sessionId'] = sessionId;
    this.canvas.dataset['points'] = points.map((p) => (p[pct] === null ? '' : String(p[pct]))).join(',');
    this.canvas.dataset['counts'] = points.map((p) => String(p.n)).join(',');
    setTitle(this.el, desc);
    this.draw();
  }

  draw(): void {
    const ctx = fitCanvas(this.canvas, WIDTH, HEIGHT);
    const palette = readPalette();
    const pts = sparklinePoints(
      this.points.map((p) => p[this.pct]),
      WIDTH,
      HEIGHT,
      3,
    );
    strokeGappedLine(ctx, pts, palette.phase.prefill);
    const last = [...pts].reverse().find((p) => p !== null);
    if (last) {
      ctx.fillStyle = palette.phase.prefill;
      ctx.fillRect(last.x - 2, last.y - 2, 4, 4);
    }
  }
}
