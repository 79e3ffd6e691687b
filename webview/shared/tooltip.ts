// One floating tooltip for canvas hover (canvases have no title per shape).
import { h, setText } from './dom';

export class Tooltip {
  readonly el = h('div', { className: 'tooltip', role: 'tooltip', testId: 'tooltip' });

  constructor() {
    this.el.hidden = true;
    document.body.append(this.el);
  }

  show(text: string, clientX: number, clientY: number): void {
    setText(this.el, text);
    this.el.hidden = false;
    const pad = 12;
    const w = this.el.offsetWidth;
    const hgt = this.el.offsetHeight;
    const x = clientX + pad + w > window.innerWidth ? Math.max(0, clientX - pad - w) : clientX + pad;
    const y = clientY + pad + hgt > window.innerHeight ? Math.max(0, clientY - pad - hgt) : clientY + pad;
    this.el.style.left = `${x}px`;
    this.el.style.top = `${y}px`;
  }

  hide(): void {
    this.el.hidden = true;
  }
}
