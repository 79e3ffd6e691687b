// Items in a sentence: "a", "a and b", "a, b and c".

export function andList(items: readonly (string | number)[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}
