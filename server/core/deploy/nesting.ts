// How deeply a YAML text nests, so that a text nested deeper than any deploy config is
// refused before the `yaml` library composes it: its composer recurses once per level
// (thousands of `[` overflow the stack, and near the stack's end V8 can abort the whole
// process instead of throwing), and its tokenizer takes ~25 µs per level. A deploy config
// nests 5 to 8 levels; PyYAML, which vLLM-Omni uses, recurses per level too.
//
// Two checks, both linear: a scan of the characters before anything is parsed, which
// refuses the pathological texts at once, and an exact count on the `yaml` tokens
// (cstNestingExcess), which catches whatever the scan reads differently from the
// tokenizer. The scan follows the tokenizer's rules for flow collections, quotes,
// comments and block scalars; where it cannot tell, it counts less (the exact count is
// the backstop), so that a real config is never refused.
import type { CST } from 'yaml';

/** Deepest nesting of collections read; deeper texts are refused. */
export const MAX_NESTING = 100;

const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const HASH = 0x23;
const DQUOTE = 0x22;
const SQUOTE = 0x27;
const BACKSLASH = 0x5c;
const OPEN_SQUARE = 0x5b;
const CLOSE_SQUARE = 0x5d;
const OPEN_CURLY = 0x7b;
const CLOSE_CURLY = 0x7d;
const COMMA = 0x2c;
const COLON = 0x3a;
const DASH = 0x2d;
const QUESTION = 0x3f;
const AMPERSAND = 0x26;
const BANG = 0x21;
const PIPE = 0x7c;
const GREATER = 0x3e;
const DOT = 0x2e;

function isBlank(c: number): boolean {
  return c === SPACE || c === TAB || c === LF || c === CR || Number.isNaN(c);
}

function isFlowIndicator(c: number): boolean {
  return c === COMMA || c === OPEN_SQUARE || c === CLOSE_SQUARE || c === OPEN_CURLY || c === CLOSE_CURLY;
}

/** Offset of the first character where the nesting goes past MAX_NESTING, or null. */
export function scanNestingExcess(text: string, max = MAX_NESTING): number | null {
  const n = text.length;
  const block: number[] = []; // columns of the open block collections
  let flow = 0;
  /** Indentation of the line where the outermost flow collection opened; -1 at the document root. */
  let flowIndent = -1;
  /** Lines indented more than this belong to a block scalar (`|`, `>`); -1: none. */
  let blockScalar = -1;
  let at = 0;
  while (at < n) {
    // A line: its indentation first.
    const lineStart = at;
    while (text.charCodeAt(at) === SPACE) at++;
    const indent = at - lineStart;
    const first = text.charCodeAt(at);
    const blank = first === LF || first === CR || Number.isNaN(first);
    if (blockScalar >= 0) {
      if (blank || indent > blockScalar) {
        at = lineEnd(text, at);
        continue;
      }
      blockScalar = -1;
    }
    if (indent === 0 && isDocumentMarker(text, at)) {
      block.length = 0;
      flow = 0;
      at = lineEnd(text, at);
      continue;
    }
    if (blank || first === HASH) {
      at = lineEnd(text, at);
      continue;
    }
    // An unclosed flow collection ends at a line indented no more than where it opened
    // (a closing bracket there still belongs to it).
    if (
      flow > 0 &&
      flowIndent >= 0 &&
      indent <= flowIndent &&
      !(flow === 1 && indent === flowIndent && (first === CLOSE_SQUARE || first === CLOSE_CURLY))
    )
      flow = 0;
    if (flow === 0) {
      while (block.length > 0 && block[block.length - 1] >= indent) block.pop();
      block.push(indent);
      if (block.length + flow > max) return at;
    }
    // The rest of the line, token by token as far as nesting goes.
    let nodeStart = true;
    while (at < n) {
      const c = text.charCodeAt(at);
      if (c === LF) {
        at++;
        break;
      }
      if (c === SPACE || c === TAB || c === CR) {
        at++;
        continue;
      }
      if (c === HASH && isBlank(text.charCodeAt(at - 1))) {
        at = lineEnd(text, at);
        break;
      }
      if (flow > 0) {
        if (c === OPEN_SQUARE || c === OPEN_CURLY) {
          if (++flow + block.length > max) return at;
          nodeStart = true;
        } else if (c === CLOSE_SQUARE || c === CLOSE_CURLY) {
          flow--;
          nodeStart = false;
        } else if (c === COMMA || c === COLON || c === QUESTION) {
          nodeStart = true;
        } else if (nodeStart && (c === DQUOTE || c === SQUOTE)) {
          at = quotedEnd(text, at);
          nodeStart = false;
          continue;
        } else if (nodeStart && (c === AMPERSAND || c === BANG)) {
          at = propertyEnd(text, at);
          continue;
        } else {
          // A plain scalar: up to a flow indicator, `: ` or ` #`.
          at = flowPlainEnd(text, at);
          nodeStart = false;
          continue;
        }
        at++;
        continue;
      }
      // Block context.
      if (nodeStart && (c === DASH || c === QUESTION || c === COLON) && isBlank(text.charCodeAt(at + 1))) {
        // `- - x`: a collection in a collection on one line.
        at++;
        while (text.charCodeAt(at) === SPACE) at++;
        const column = at - lineStart;
        while (block.length > 0 && block[block.length - 1] >= column) block.pop();
        block.push(column);
        if (block.length + flow > max) return at;
        continue;
      }
      if (nodeStart && (c === OPEN_SQUARE || c === OPEN_CURLY)) {
        flow = 1;
        flowIndent = block.length === 1 && indent === 0 && at === lineStart ? -1 : indent;
        if (flow + block.length > max) return at;
        at++;
        nodeStart = true;
        continue;
      }
      if (nodeStart && (c === DQUOTE || c === SQUOTE)) {
        at = quotedEnd(text, at);
        nodeStart = false;
        continue;
      }
      if (nodeStart && (c === AMPERSAND || c === BANG)) {
        at = propertyEnd(text, at);
        continue;
      }
      if (nodeStart && (c === PIPE || c === GREATER)) {
        blockScalar = indent;
        at = lineEnd(text, at);
        break;
      }
      // A plain scalar or a key: a value starts after `: `.
      if (c === COLON && isBlank(text.charCodeAt(at + 1))) {
        at++;
        nodeStart = true;
        continue;
      }
      nodeStart = false;
      at++;
    }
  }
  return null;
}

function lineEnd(text: string, from: number): number {
  const end = text.indexOf('\n', from);
  return end < 0 ? text.length : end + 1;
}

function isDocumentMarker(text: string, at: number): boolean {
  const c = text.charCodeAt(at);
  if (c !== DASH && c !== DOT) return false;
  return text.charCodeAt(at + 1) === c && text.charCodeAt(at + 2) === c && isBlank(text.charCodeAt(at + 3));
}

/** Past the closing quote (`''` and `\"` escape), or at a line that starts unindented, where the tokenizer ends it too. */
function quotedEnd(text: string, at: number): number {
  const quote = text.charCodeAt(at);
  let i = at + 1;
  for (;;) {
    const c = text.charCodeAt(i);
    if (Number.isNaN(c)) return i;
    if (c === LF) {
      const next = text.charCodeAt(i + 1);
      if (!isBlank(next) && next !== HASH) return i + 1;
    } else if (quote === SQUOTE && c === SQUOTE) {
      if (text.charCodeAt(i + 1) !== SQUOTE) return i + 1;
      i++;
    } else if (quote === DQUOTE && c === BACKSLASH) {
      i++;
    } else if (quote === DQUOTE && c === DQUOTE) {
      return i + 1;
    }
    i++;
  }
}

/** Past an anchor or tag (`&name`, `!tag`). */
function propertyEnd(text: string, at: number): number {
  let i = at + 1;
  for (;;) {
    const c = text.charCodeAt(i);
    if (isBlank(c) || isFlowIndicator(c)) return i;
    i++;
  }
}

function flowPlainEnd(text: string, at: number): number {
  let i = at + 1;
  for (;;) {
    const c = text.charCodeAt(i);
    if (Number.isNaN(c) || c === LF || isFlowIndicator(c)) return i;
    if (c === COLON && (isBlank(text.charCodeAt(i + 1)) || isFlowIndicator(text.charCodeAt(i + 1)))) return i;
    if (c === HASH && isBlank(text.charCodeAt(i - 1))) return i;
    i++;
  }
}

/**
 * The exact count on `yaml`'s tokens (what its composer recurses over): the offset of the
 * first collection nested deeper than `max`, or null. Iterative.
 */
export function cstNestingExcess(tokens: readonly CST.Token[], max = MAX_NESTING): number | null {
  const todo: Array<[CST.Token | undefined, number]> = tokens.map((token) => [token, 0]);
  while (todo.length > 0) {
    const [token, depth] = todo.pop() as [CST.Token | undefined, number];
    if (!token) continue;
    switch (token.type) {
      case 'document':
        todo.push([token.value, depth]);
        break;
      case 'block-map':
      case 'block-seq':
      case 'flow-collection':
        if (depth + 1 > max) return token.offset;
        for (const item of token.items) {
          const pair = item as { key?: CST.Token | null; value?: CST.Token };
          if (pair.key) todo.push([pair.key, depth + 1]);
          todo.push([pair.value, depth + 1]);
        }
        break;
      default:
        break;
    }
  }
  return null;
}
