// The side panel's section for a session read from a Prometheus server: one line per
// (stage, replica) with the hosts behind it and a sparkline of its finished requests per
// second (own canvas, as the headline trend; gaps where Prometheus had no point).
import { fitCanvas, strokeGappedLine } from '../shared/canvas';
import { h, setChildren, setText } from '../shared/dom';
import { sparklinePoints } from '../shared/sparkline';
import { readPalette } from '../shared/theme';
import type { PrometheusModel, ReplicaRowModel } from './prometheusModel';

const WIDTH = 90;
const HEIGHT = 20;

export class PrometheusSection {
  readonly el: HTMLElement;
  private readonly caption = h('span', { className: 'muted source-note', testId: 'prometheus-caption' });
  private readonly list = h('ul', {
    className: 'replica-list',
    testId: 'prometheus-replicas',
    attrs: { 'aria-label': 'Replicas reported through Prometheus' },
  });
  private model: PrometheusModel = { caption: '', rows: [] };

  constructor() {
    this.el = h(
      'section',
      { className: 'prometheus-section', testId: 'prometheus-section', attrs: { 'aria-label': 'From Prometheus' } },
      h('h2', {}, 'From Prometheus ', this.caption),
      this.list,
    );
    this.el.hidden = true;
  }

  update(model: PrometheusModel | null): void {
    this.el.hidden = model === null || model.rows.length === 0;
    if (model === null) return;
    this.model = model;
    setText(this.caption, model.caption);
    setChildren(
      this.list,
      model.rows.map((row) => this.item(row)),
    );
    this.draw();
  }

  private item(row: ReplicaRowModel): HTMLElement {
    const canvas = h('canvas', {
      className: 'replica-trend',
      attrs: { role: 'img', 'aria-label': `${row.label}: requests per second` },
    });
    return h(
      'li',
      { className: 'replica', testId: 'prometheus-replica', title: row.title, dataset: { key: row.key } },
      h(
        'div',
        { className: 'replica-text' },
        h('span', { className: 'replica-label', text: row.label }),
        h('span', { className: 'replica-instances muted', testId: 'replica-instances', text: row.instances }),
      ),
      canvas,
      h('span', {
        className: 'replica-rate',
        testId: 'replica-rate',
        dataset: { state: row.lastState },
        text: row.lastText,
      }),
    );
  }

  /** Redraws the sparklines (theme change, new figures). */
  draw(): void {
    const palette = readPalette();
    const canvases = this.list.querySelectorAll('canvas');
    this.model.rows.forEach((row, i) => {
      const canvas = canvases[i];
      if (canvas === undefined) return;
      strokeGappedLine(
        fitCanvas(canvas, WIDTH, HEIGHT),
        sparklinePoints(row.rate, WIDTH, HEIGHT, 2),
        palette.phase.decode,
      );
      canvas.dataset['points'] = String(row.rate.filter((v) => v !== null).length);
    });
  }
}
