// JSON.stringify(value, null, 2), produced in chunks: the top-level arrays are written one
// element at a time, so a 100k-request report never becomes one giant string (V8 caps a
// string at ~512 MiB). The text is identical to JSON.stringify's.

const indent = (text: string, pad: string): string => text.replace(/\n/g, `\n${pad}`);

/** Chunks of `JSON.stringify(value, null, 2)` for a plain object (no toJSON, no cycles). */
export function* prettyJsonChunks(value: object, chunkChars = 1 << 20): Generator<string, void, undefined> {
  const entries = Object.entries(value).filter(
    ([, v]) => v !== undefined && typeof v !== 'function' && typeof v !== 'symbol',
  );
  if (entries.length === 0) {
    yield '{}';
    return;
  }
  let buf = '{\n';
  for (let i = 0; i < entries.length; i++) {
    const [key, v] = entries[i] as [string, unknown];
    buf += `  ${JSON.stringify(key)}: `;
    if (Array.isArray(v) && v.length > 0) {
      buf += '[\n';
      for (let j = 0; j < v.length; j++) {
        // Inside an array, undefined/functions print as null, as JSON.stringify does.
        const element: unknown = v[j];
        const text =
          element === undefined || typeof element === 'function' || typeof element === 'symbol'
            ? 'null'
            : JSON.stringify(element, null, 2);
        buf += `    ${indent(text, '    ')}${j < v.length - 1 ? ',' : ''}\n`;
        if (buf.length >= chunkChars) {
          yield buf;
          buf = '';
        }
      }
      buf += '  ]';
    } else {
      buf += indent(JSON.stringify(v, null, 2), '  ');
    }
    buf += i < entries.length - 1 ? ',\n' : '\n';
  }
  yield `${buf}}`;
}
