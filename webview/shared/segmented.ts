// A small radio group rendered as segmented buttons (percentile switch), keyboard
// operable as a radiogroup: arrows move, Space/Enter/click choose.
import { h } from './dom';

export interface Segmented<T extends string> {
  readonly el: HTMLElement;
  set(value: T): void;
}

export function segmented<T extends string>(
  label: string,
  options: readonly T[],
  value: T,
  testId: string,
  onChange: (v: T) => void,
): Segmented<T> {
  const el = h('div', { className: 'segmented', role: 'radiogroup', testId, attrs: { 'aria-label': label } });
  const buttons = options.map((opt) => {
    const b = h('button', { text: opt, role: 'radio', testId: `${testId}-${opt}`, attrs: { type: 'button' } });
    b.addEventListener('click', () => choose(opt, true));
    b.addEventListener('keydown', (ev) => {
      const i = options.indexOf(opt);
      const next =
        ev.key === 'ArrowRight' || ev.key === 'ArrowDown'
          ? i + 1
          : ev.key === 'ArrowLeft' || ev.key === 'ArrowUp'
            ? i - 1
            : null;
      if (next === null) return;
      ev.preventDefault();
      const target = options[(next + options.length) % options.length] as T;
      choose(target, true);
      buttons[options.indexOf(target)]?.focus();
    });
    el.append(b);
    return b;
  });
  function render(v: T): void {
    buttons.forEach((b, i) => {
      const on = options[i] === v;
      b.setAttribute('aria-checked', String(on));
      b.tabIndex = on ? 0 : -1;
    });
  }
  function choose(v: T, notify: boolean): void {
    render(v);
    if (notify) onChange(v);
  }
  render(value);
  return { el, set: (v) => render(v) };
}
