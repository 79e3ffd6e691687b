// DOM building without markup strings: every piece of text goes through a text node or
// textContent, so a request id like `<img src=x onerror=alert(1)>` stays text. Nothing in
// webview/ uses innerHTML/outerHTML/insertAdjacentHTML (test/unit/webview-escaping.test.ts).

type Child = Node | string | null | undefined | false;
/** Children may come as an array: an input-sized list spread into a call (`...rows`) overflows the stack. */
type Children = Child | readonly Child[];

export interface Props {
  readonly className?: string;
  readonly id?: string;
  readonly testId?: string;
  readonly title?: string;
  readonly role?: string;
  readonly text?: string;
  readonly attrs?: Readonly<Record<string, string>>;
  readonly dataset?: Readonly<Record<string, string>>;
}

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props = {},
  ...children: Children[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (props.className !== undefined) el.className = props.className;
  if (props.id !== undefined) el.id = props.id;
  if (props.testId !== undefined) el.dataset['testid'] = props.testId;
  if (props.title !== undefined) el.title = props.title;
  if (props.role !== undefined) el.setAttribute('role', props.role);
  if (props.text !== undefined) el.textContent = props.text;
  for (const [k, v] of Object.entries(props.attrs ?? {})) el.setAttribute(k, v);
  for (const [k, v] of Object.entries(props.dataset ?? {})) el.dataset[k] = v;
  appendAll(el, children);
  return el;
}

function appendAll(el: Element, children: readonly Children[]): void {
  for (const child of children) {
    if (Array.isArray(child)) appendAll(el, child as readonly Child[]);
    else if (child !== null && child !== undefined && child !== false)
      el.append(typeof child === 'string' ? document.createTextNode(child) : (child as Node));
  }
}

/** `el.replaceChildren(...children)` for a list of any length. */
export function setChildren(el: Element, children: readonly Children[]): void {
  el.replaceChildren();
  appendAll(el, children);
}

/** Set text only when it changed (cheap on the hot path of scrolling and live updates). */
export function setText(el: HTMLElement, text: string): void {
  if (el.textContent !== text) el.textContent = text;
}

export function setTitle(el: HTMLElement, title: string): void {
  if (el.title !== title) el.title = title;
}

const deferredTitles = new WeakMap<HTMLElement, string>();

function applyDeferredTitle(this: HTMLElement): void {
  const title = deferredTitles.get(this);
  deferredTitles.delete(this);
  if (title !== undefined) setTitle(this, title);
}

/**
 * setTitle for values that change live (a p50 "over 41 values" becomes "over 42"): while the
 * pointer is on the element, its tooltip is left alone (a new title would wipe the tooltip the
 * user is reading) and the new one is set when the pointer leaves. Not for recycled elements
 * whose content changes under a still pointer (the virtual table's rows).
 */
export function setLiveTitle(el: HTMLElement, title: string): void {
  if (!el.matches(':hover')) {
    deferredTitles.delete(el);
    setTitle(el, title);
    return;
  }
  if (!deferredTitles.has(el)) el.addEventListener('pointerleave', applyDeferredTitle, { once: true });
  deferredTitles.set(el, title);
}

export function setData(el: HTMLElement, key: string, value: string): void {
  if (el.dataset[key] !== value) el.dataset[key] = value;
}

export function setAttr(el: Element, name: string, value: string): void {
  if (el.getAttribute(name) !== value) el.setAttribute(name, value);
}

export function clear(el: Element): void {
  el.replaceChildren();
}

export function button(label: string, props: Props, onClick: (ev: MouseEvent) => void): HTMLButtonElement {
  const b = h('button', { ...props, text: label, attrs: { type: 'button', ...(props.attrs ?? {}) } });
  b.addEventListener('click', onClick);
  return b;
}

export function debounce<A extends unknown[]>(fn: (...args: A) => void, ms: number): (...args: A) => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return (...args: A) => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => fn(...args), ms);
  };
}
