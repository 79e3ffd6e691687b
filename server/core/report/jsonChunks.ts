// A report object as JSON text, produced in chunks: the top-level arrays are written one
// element at a time, so a 100k-request report never becomes one giant string (V8 caps a
// string at ~512 MiB). Two layouts of the same value:
//  - `compact` (what `analyze --format json` writes): no whitespace but a line break before
//    each top-level member and each element of a top-level array, and one before the closing
//    brace, so a request is one line (`grep`, `head`, `wc -l` work on it) and the document is
//    ~45% smaller than indented;
//  - `indented` (`--pretty`): the text of JSON.stringify(value, null, 2).
export type JsonLayout = 'compact' | 'indented';

/** Chunks of a plain object's JSON (no toJSON, no cycles) in the given layout. */
export function jsonChunks(
  value: object,
  layout: JsonLayout,
  chunkChars = 1 << 20,
): Generator<string, void, undefined> {
  return layout === 'compact' ? compactChunks(value, chunkChars) : indentedChunks(value, chunkChars);
}

function membersOf(value: object): [string, unknown][] {
  return Object.entries(value).filter(([, v]) => v !== undefined && typeof v !== 'function' && typeof v !== 'symbol');
}

/** Inside an array, undefined and functions print as null, as JSON.stringify does. */
const isNullInArray = (element: unknown): boolean =>
  element === undefined || typeof element === 'function' || typeof element === 'symbol';

function* compactChunks(value: object, chunkChars: number): Generator<string, void, undefined> {
  const members = membersOf(value);
  if (members.length === 0) {
    yield '{}';
    return;
  }
  let buf = '{';
  for (let i = 0; i < members.length; i++) {
    const [key, v] = members[i] as [string, unknown];
    buf += `\n${JSON.stringify(key)}:`;
    if (Array.isArray(v) && v.length > 0) {
      buf += '[';
      for (let j = 0; j < v.length; j++) {
        const element: unknown = v[j];
        buf += `${j === 0 ? '\n' : ',\n'}${isNullInArray(element) ? 'null' : JSON.stringify(element)}`;
        if (buf.length >= chunkChars) {
          yield buf;
          buf = '';
        }
      }
      buf += '\n]';
    } else {
      buf += JSON.stringify(v);
    }
    if (i < members.length - 1) buf += ',';
  }
  yield `${buf}\n}`;
}

const indent = (text: string, pad: string): string => text.replace(/\n/g, `\n${pad}`);

function* indentedChunks(value: object, chunkChars: number): Generator<string, void, undefined> {
  const members = membersOf(value);
  if (members.length === 0) {
    yield '{}';
    return;
  }
  let buf = '{\n';
  for (let i = 0; i < members.length; i++) {
    const [key, v] = members[i] as [string, unknown];
    buf += `  ${JSON.stringify(key)}: `;
    if (Array.isArray(v) && v.length > 0) {
      buf += '[\n';
      for (let j = 0; j < v.length; j++) {
        const element: unknown = v[j];
        const text = isNullInArray(element) ? 'null' : JSON.stringify(element, null, 2);
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
    buf += i < members.length - 1 ? ',\n' : '\n';
  }
  yield `${buf}}`;
}
