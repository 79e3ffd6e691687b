// Every regular expression of the product is linear in its input: log lines, `/metrics`
// bodies, deploy YAML and every string derived from them reach them, so one that
// backtracks super-linearly blocks the language server's event loop (the legacy
// "Omni Metrics Summary" reader's `/^-{3,} *(.*?) *-{3,}\s*$/` took 22 s on a 4 KB line).
//
// Not a reading of the patterns: each regular expression literal is taken from the source
// (by the TypeScript parser, so a new one is covered without a list to keep up) and timed
// on adversarial inputs at n and 4n (linearity.ts): a prefix, a pumped string, and a
// suffix that makes the match fail late. The pumps are every character the pattern names
// (and one of each class it uses), with and without a failing suffix; SHAPES adds those that
// need a prefix to reach the part that could backtrack. The slowest shape found at a small
// size is then measured for growth. A `new RegExp(...)` built at run time cannot be read
// this way and fails the test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';
import { assertLinear } from './support/linearity';
import { parseChunks } from './support/logHelpers';

const ROOT = path.resolve(__dirname, '..', '..');
/** Where the product's code is. The simulator (server/simulate) is left out: it writes text and reads only its own numbers and its options. */
const SCOPES = ['server', 'src', 'webview'];
const LEFT_OUT = [path.join('server', 'simulate')];

interface Shape {
  readonly prefix: string;
  readonly pump: string;
  readonly suffix: string;
}

/**
 * Shapes that need a prefix to reach the part of the pattern that could backtrack, by
 * file and pattern as written. The generic shapes (below) are tried for every pattern too.
 */
const SHAPES: Record<string, Record<string, readonly Shape[]>> = {
  'server/core/log/metricsSummary.ts': {
    '/^=+ *Omni Metrics Summary *=+\\s*$/': [
      { prefix: '= Omni Metrics Summary ', pump: '=', suffix: 'x' },
      { prefix: '=', pump: ' ', suffix: 'x' },
    ],
    '/^([A-Za-z][^:]{0,100}):\\s+(\\S+)\\s*$/': [
      { prefix: 'a:', pump: ' x', suffix: '' },
      { prefix: 'a: x', pump: ' ', suffix: 'x' },
      { prefix: 'a', pump: 'b', suffix: ': x' },
    ],
  },
  'server/core/log/engineStats.ts': {
    '/^Engine (\\w{1,20}): /': [{ prefix: 'Engine ', pump: 'a', suffix: ':' }],
    '/^([A-Za-z][A-Za-z0-9 ()/-]{0,60}?): (-?\\d[\\d,]*(?:\\.\\d+)?)(?:\\s?\\S{0,16})?$/': [
      { prefix: 'Avg prompt throughput: 1', pump: ',1', suffix: 'x x' },
      { prefix: 'a: 1', pump: '1', suffix: ' x x' },
      { prefix: 'a: 1.', pump: '1', suffix: ' x x' },
    ],
  },
  'server/core/log/prefix.ts': {
    '/(DEBUG|INFO|WARNING|ERROR|CRITICAL) (\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d) \\[([^\\]\\s]{1,300}):(\\d{1,9})\\](?: |$)/':
      [
        { prefix: '', pump: 'INFO 08-21 18:00:00 [a:1:1:1:1:1', suffix: '' },
        { prefix: '', pump: 'INFO 08-21 18:00:00 [' + 'a'.repeat(290) + ':123456789', suffix: '' },
      ],
  },
  'server/core/log/legacyDict.ts': {
    "/^\\s+'\\w+': /": [{ prefix: " '", pump: 'a', suffix: "'" }],
  },
  'server/core/inputKind.ts': {
    '/^[a-zA-Z_:][a-zA-Z0-9_:]*(\\{[^}]*\\})?\\s+([-+]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][-+]?\\d+)?|[-+]?Inf|NaN)(\\s+-?\\d+)?$/':
      [
        { prefix: 'a', pump: 'a', suffix: ' x' },
        { prefix: 'a{', pump: 'x=', suffix: '' },
        { prefix: 'a ', pump: '1', suffix: 'x' },
        { prefix: 'a 1', pump: ' ', suffix: 'x' },
        { prefix: 'a 1 ', pump: '1', suffix: 'x' },
      ],
  },
  'server/core/metricsText/sampleLine.ts': {
    '/^[+-]?(?:\\d+(?:\\.\\d*)?|\\.\\d+)(?:[eE][+-]?\\d+)?$/': [
      { prefix: '', pump: '1', suffix: 'x' },
      { prefix: '1.', pump: '1', suffix: 'x' },
      { prefix: '1e', pump: '1', suffix: 'x' },
    ],
  },
  'server/core/prometheusQuery/stageQueries.ts': {
    '/^(.*)_(bucket|count|sum)$/': [
      { prefix: '', pump: '_bucket', suffix: 'x' },
      { prefix: '', pump: '_', suffix: 'x' },
    ],
  },
  'server/core/prometheusQuery/syntax.ts': {
    '/^(?:(\\d+)y)?(?:(\\d+)w)?(?:(\\d+)d)?(?:(\\d+)h)?(?:(\\d+)m)?(?:(\\d+)s)?(?:(\\d+)ms)?$/': [
      { prefix: '', pump: '1', suffix: 'x' },
      { prefix: '1y1w1d1h1m', pump: '1', suffix: 'x' },
    ],
  },
  'server/core/compare/rules.ts': {
    '/^([+-])?(\\d+(?:\\.\\d+)?|\\.\\d+)(ms|s|%)$/': [
      { prefix: '', pump: '1', suffix: 'x' },
      { prefix: '1.', pump: '1', suffix: 'x' },
    ],
  },
  'server/core/deploy/yamlSegments.ts': {
    '/[A-Za-z_][\\w.-]*:[ ]*(?:#[^\\n]*)?(?:\\n|$)/y': [
      { prefix: 'a:', pump: ' ', suffix: 'x' },
      { prefix: 'a: #', pump: 'x', suffix: '' },
    ],
    '/^---[ ]*(?:#.*)?\\r?$/': [
      { prefix: '---', pump: ' ', suffix: 'x' },
      { prefix: '--- #', pump: 'x', suffix: '\n' },
    ],
    '/^[ ]*(?:#.*)?\\r?$/': [
      { prefix: '', pump: ' ', suffix: 'x' },
      { prefix: '#', pump: 'x', suffix: '\rx' },
    ],
  },
  'server/core/deploy/parsedFile.ts': {
    '/ at line \\d+, column \\d+:?$/': [
      { prefix: '', pump: ' at line 1, column ', suffix: '' },
      { prefix: ' at line ', pump: '1', suffix: 'x' },
    ],
  },
};

/** Characters every pattern's inputs are built from, beside those the pattern names. */
const COMMON = [
  ' ',
  'a',
  'A',
  '1',
  '_',
  '-',
  ':',
  '.',
  ',',
  '/',
  '\\',
  '"',
  "'",
  '=',
  '#',
  '[',
  ']',
  '{',
  '}',
  '(',
  ')',
  '|',
  '+',
  '*',
  '%',
  '&',
  '\n',
  '\r',
  '\t',
  'x',
  'é',
];
const SUFFIXES = ['', '!', '\n', '\u0000'];

interface Found {
  readonly file: string;
  readonly literal: string;
  readonly line: number;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (LEFT_OUT.some((left) => path.relative(ROOT, full) === left)) continue;
    if (entry.isDirectory()) out.push(...sourceFiles(full));
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

function findPatterns(): { patterns: Found[]; dynamic: string[] } {
  const patterns: Found[] = [];
  const dynamic: string[] = [];
  for (const scope of SCOPES) {
    for (const file of sourceFiles(path.join(ROOT, scope))) {
      const text = fs.readFileSync(file, 'utf8');
      const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
      const relative = path.relative(ROOT, file).split(path.sep).join('/');
      const visit = (node: ts.Node): void => {
        if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
          patterns.push({
            file: relative,
            literal: node.getText(),
            line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1,
          });
        } else if ((ts.isNewExpression(node) || ts.isCallExpression(node)) && node.expression.getText() === 'RegExp') {
          dynamic.push(
            `${relative}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${node.getText()}`,
          );
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
  }
  return { patterns, dynamic };
}

function compile(literal: string): RegExp {
  const cut = literal.lastIndexOf('/');
  return new RegExp(literal.slice(1, cut), literal.slice(cut + 1));
}

/** The characters a pattern names: its literal characters, and one of each class it uses. */
function alphabet(regex: RegExp): string[] {
  const chars = new Set(COMMON);
  const source = regex.source;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c !== '\\') {
      chars.add(c);
      continue;
    }
    const next = source[++i] ?? '';
    const classes: Record<string, string[]> = {
      d: ['7'],
      D: ['x'],
      w: ['b', '_'],
      W: ['-'],
      s: [' ', '\t'],
      S: ['y'],
      b: [],
      B: [],
      n: ['\n'],
      r: ['\r'],
      t: ['\t'],
    };
    for (const ch of classes[next] ?? [next]) chars.add(ch);
  }
  return [...chars];
}

/** All matching attempts the product may make: every start position, every match, a split. */
function work(regex: RegExp): (input: string) => void {
  const flags = regex.flags;
  if (flags.includes('y')) {
    const sticky = new RegExp(regex.source, flags);
    return (input) => {
      sticky.lastIndex = 0;
      sticky.exec(input);
    };
  }
  const once = new RegExp(regex.source, flags.replace('g', ''));
  const all = new RegExp(regex.source, flags.includes('g') ? flags : `${flags}g`);
  return (input) => {
    once.exec(input);
    input.replace(all, '');
    input.split(once);
  };
}

function build(shape: Shape, n: number): string {
  const pump = shape.pump.repeat(Math.max(1, Math.ceil(n / shape.pump.length)));
  return shape.prefix + pump + shape.suffix;
}

function msOf(run: () => void): number {
  const start = performance.now();
  run();
  return performance.now() - start;
}

const { patterns, dynamic } = findPatterns();

test('the patterns are found: every regular expression literal of server/ (but the simulator), src/ and webview/', () => {
  assert.deepEqual(dynamic, [], 'a RegExp built at run time cannot be checked here: write it as a literal');
  // The count moves as code changes; this only says that the scan reads the code at all.
  assert.ok(patterns.length > 80, `${patterns.length} patterns`);
  const known = new Set(patterns.map((p) => `${p.file} ${p.literal}`));
  for (const [file, byPattern] of Object.entries(SHAPES)) {
    for (const literal of Object.keys(byPattern))
      assert.ok(
        known.has(`${file} ${literal}`),
        `SHAPES names ${literal} in ${file}, which is not there (changed? update SHAPES)`,
      );
  }
});

for (const found of patterns) {
  test(`linear: ${found.file}:${found.line} ${found.literal}`, () => {
    const regex = compile(found.literal);
    const run = work(regex);
    const shapes: Shape[] = [...(SHAPES[found.file]?.[found.literal] ?? [])];
    for (const pump of alphabet(regex)) for (const suffix of SUFFIXES) shapes.push({ prefix: '', pump, suffix });
    // Screening at a size where a linear pattern takes microseconds and a quadratic one a
    // fraction of a millisecond (the better of two runs: a pause only adds time); the two
    // slowest shapes are measured for growth.
    const screened = shapes.map((shape) => {
      const input = build(shape, 512);
      return {
        shape,
        ms: Math.min(
          msOf(() => run(input)),
          msOf(() => run(input)),
        ),
      };
    });
    screened.sort((a, b) => b.ms - a.ms);
    for (const { shape } of screened.slice(0, 2)) {
      assertLinear(
        `${found.literal} on ${JSON.stringify(shape.prefix)} + ${JSON.stringify(shape.pump)} x n + ${JSON.stringify(shape.suffix)}`,
        (n) => build(shape, n),
        run,
        { start: 256, targetMs: 2, maxN: 131_072, floorMs: 0.5 },
      );
    }
  });
}

// The same shapes through the whole log parser, as a log file would bring them.
const READER_SHAPES: ReadonlyArray<readonly [string, (n: number) => string]> = [
  [
    'an "Omni Metrics Summary" header, then a line of dashes',
    (n) => `============ Omni Metrics Summary ============\n${'-'.repeat(n)}x\n`,
  ],
  ['a markdown heading with trailing spaces', (n) => `# StageRequestStats${' '.repeat(n)}x\n`],
  ['a markdown heading of spaces', (n) => `#### a${' '.repeat(n)}\n`],
];

for (const [name, make] of READER_SHAPES) {
  test(`the log parser is linear on ${name}`, () => {
    assertLinear(name, make, (text) => parseChunks([text]), { start: 256, targetMs: 4, maxN: 1_000_000 });
  });
}
