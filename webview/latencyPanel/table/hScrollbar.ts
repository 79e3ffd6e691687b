// A horizontal scrollbar drawn in the DOM under the request table, shown when the table is
// wider than its box and the browser draws no scrollbar of its own there: overlay
// scrollbars (macOS) appear only while scrolling, and headless Chromium draws none, so the
// columns past the right edge would have no visible way to them. Thumb drag and track clicks
// move the table's own scroll position; wheel and keyboard scrolling stay the browser's.
import { h } from '../../shared/dom';

const MIN_THUMB = 24;

export class HScrollbar {
  readonly el: HTMLDivElement;
  private readonly thumb: HTMLDivElement;
  private drag: { x: number; left: number } | null = null;

  constructor(private readonly scroller: HTMLElement) {
    this.thumb = h('div', { className: 'hscroll-thumb', testId: 'request-table-hscroll-thumb' });
    this.el = h(
      'div',
      {
        className: 'hscroll',
        testId: 'request-table-hscroll',
        role: 'scrollbar',
        attrs: { 'aria-orientation': 'horizontal', 'aria-label': 'Columns', 'aria-valuemin': '0' },
      },
      this.thumb,
    );
    this.el.hidden = true;
    this.thumb.addEventListener('pointerdown', (ev) => {
      ev.preventDefault();
      ev.stopPropagation();
      this.thumb.setPointerCapture(ev.pointerId);
      this.drag = { x: ev.clientX, left: this.scroller.scrollLeft };
      this.el.dataset['active'] = 'true';
    });
    this.thumb.addEventListener('pointermove', (ev) => {
      if (this.drag === null) return;
      const { range, travel } = this.metrics();
      if (travel <= 0) return;
      this.scroller.scrollLeft = this.drag.left + ((ev.clientX - this.drag.x) * range) / travel;
    });
    const end = (): void => {
      this.drag = null;
      delete this.el.dataset['active'];
    };
    this.thumb.addEventListener('pointerup', end);
    this.thumb.addEventListener('pointercancel', end);
    // A click on the track pages towards it, as a native scrollbar does.
    this.el.addEventListener('pointerdown', (ev) => {
      if (ev.target !== this.el) return;
      const thumb = this.thumb.getBoundingClientRect();
      const page = Math.max(40, this.scroller.clientWidth * 0.8);
      this.scroller.scrollLeft += ev.clientX < thumb.left ? -page : page;
    });
  }

  private metrics(): { range: number; track: number; thumb: number; travel: number } {
    const range = Math.max(0, this.scroller.scrollWidth - this.scroller.clientWidth);
    const track = this.el.clientWidth;
    const thumb =
      range <= 0
        ? track
        : Math.max(MIN_THUMB, Math.round((track * this.scroller.clientWidth) / this.scroller.scrollWidth));
    return { range, track, thumb, travel: track - thumb };
  }

  /** Show or hide and place the thumb; call on scroll and whenever the sizes may have changed. */
  sync(): void {
    const s = this.scroller;
    const overflows = s.scrollWidth > s.clientWidth + 1;
    // A scrollbar the browser draws takes room in the box: the box is taller than its client area plus borders.
    const native = s.offsetHeight - s.clientHeight - s.clientTop * 2 > 0;
    const show = overflows && !native;
    if (this.el.hidden === show) this.el.hidden = !show;
    if (!show) return;
    const { range, thumb, travel } = this.metrics();
    this.thumb.style.width = `${thumb}px`;
    this.thumb.style.transform = `translateX(${range <= 0 ? 0 : Math.round((s.scrollLeft / range) * travel)}px)`;
    this.el.setAttribute('aria-valuemax', String(Math.round(range)));
    this.el.setAttribute('aria-valuenow', String(Math.round(s.scrollLeft)));
  }
}
