// A transfer edge as people read it, in the CLI's text and tables and in the views alike:
// `0 → 1`. Its key `0->1` stays ASCII where a format names it (JSON keys, CSV headers, the
// compare JSON's scopes, `--fail-if` rules).

/** `0->1` -> `0 → 1` (a key without an arrow stays as it is). */
export function edgeLabel(edgeKey: string): string {
  return edgeKey.replace('->', ' → ');
}
