// Label-set helpers. vLLM-Omni exposes stage and replica ids as string labels
// (`stage="0"`, `replica="0"`); readers want them as numbers, or null when the label is
// missing or is not an integer (never a guessed 0).
import type { Labels } from './model';

const INTEGER = /^-?\d+$/;

function integerLabel(labels: Labels, name: string): number | null {
  if (!Object.prototype.hasOwnProperty.call(labels, name)) return null;
  const text = labels[name];
  if (text === undefined || !INTEGER.test(text)) return null;
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : null;
}

export function stageIdOf(labels: Labels): number | null {
  return integerLabel(labels, 'stage');
}

export function replicaIdOf(labels: Labels): number | null {
  return integerLabel(labels, 'replica');
}

/** Sets a label as an own property, even for names like `__proto__`. */
export function setLabel(target: Record<string, string>, name: string, value: string): void {
  Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
}

/** Copy of `labels` without the named labels (e.g. `le`, `quantile`). */
export function withoutLabels(labels: Labels, omit: readonly string[]): Labels {
  const result: Record<string, string> = {};
  for (const name of Object.keys(labels)) {
    if (!omit.includes(name)) setLabel(result, name, labels[name]);
  }
  return result;
}

/** A stable identity for a label set, independent of label order. */
export function labelsKey(labels: Labels): string {
  const names = Object.keys(labels).sort();
  return JSON.stringify(names.map((name) => [name, labels[name]]));
}
