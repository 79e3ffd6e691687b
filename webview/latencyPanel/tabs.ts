// ARIA tabs with a roving tabindex: ←/→/Home/End move and activate, panels are labelled
// by their tab.
import { h } from '../shared/dom';

export interface TabSpec<T extends string> {
  readonly id: T;
  readonly label: string;
  readonly panel: HTMLElement;
}

export class Tabs<T extends string> {
  readonly list: HTMLElement;
  private readonly buttons = new Map<T, HTMLButtonElement>();
  private activeId: T;

  constructor(
    private readonly specs: readonly TabSpec<T>[],
    active: T,
    private readonly onActivate: (id: T) => void,
  ) {
    this.activeId = active;
    this.list = h('div', { className: 'tabs', role: 'tablist', attrs: { 'aria-label': 'Latency views' } });
    for (const spec of specs) {
      const b = h('button', {
        className: 'tab',
        role: 'tab',
        text: spec.label,
        id: `tab-${spec.id}`,
        testId: `tab-${spec.id}`,
        attrs: { type: 'button', 'aria-controls': `panel-${spec.id}` },
      });
      b.addEventListener('click', () => this.activate(spec.id, true));
      b.addEventListener('keydown', (ev) => this.onKey(ev, spec.id));
      spec.panel.id = `panel-${spec.id}`;
      spec.panel.setAttribute('role', 'tabpanel');
      spec.panel.setAttribute('aria-labelledby', `tab-${spec.id}`);
      spec.panel.dataset['testid'] = `panel-${spec.id}`;
      this.buttons.set(spec.id, b);
      this.list.append(b);
    }
    this.render();
  }

  get active(): T {
    return this.activeId;
  }

  activate(id: T, notify = true): void {
    this.activeId = id;
    this.render();
    if (notify) this.onActivate(id);
  }

  /** Keyboard focus on tab `id`'s button. */
  focus(id: T): void {
    this.buttons.get(id)?.focus();
  }

  private render(): void {
    for (const spec of this.specs) {
      const on = spec.id === this.activeId;
      const b = this.buttons.get(spec.id) as HTMLButtonElement;
      b.setAttribute('aria-selected', String(on));
      b.tabIndex = on ? 0 : -1;
      spec.panel.hidden = !on;
    }
  }

  private onKey(ev: KeyboardEvent, id: T): void {
    const ids = this.specs.map((s) => s.id);
    const i = ids.indexOf(id);
    const target =
      ev.key === 'ArrowRight'
        ? ids[(i + 1) % ids.length]
        : ev.key === 'ArrowLeft'
          ? ids[(i - 1 + ids.length) % ids.length]
          : ev.key === 'Home'
            ? ids[0]
            : ev.key === 'End'
              ? ids[ids.length - 1]
              : undefined;
    if (target === undefined) return;
    ev.preventDefault();
    this.activate(target, true);
    this.buttons.get(target)?.focus();
  }
}
