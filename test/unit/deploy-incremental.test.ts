// The incremental parse (a piece per top-level entry and per stage, re-parsed only where
// an edit lands) gives exactly what a parse of the whole text gives. Seeded property test:
// random single-character edits (inserted, deleted or replaced, YAML punctuation, tabs,
// newlines included) of the eight real configs and of crafted broken files; after each
// edit the tree, the YAML problems and the diagnostics of the incremental parse equal
// those of a from-scratch whole-text parse.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  deployDiagnostics,
  DeployFileCache,
  analyzeDeployText,
  isUnread,
  type DeployAnalysis,
  type DeployDiagnostic,
  type DeployFileText,
} from '../../server/core/deploy';
import { isList, scalarOf, toPlain, valueOf } from '../../server/core/deploy/configTree';
import { resolveEffectiveConfig } from '../../server/core/deploy/effectiveConfig';
import { IncrementalDeployParser } from '../../server/core/deploy/incrementalParse';
import { parseDeployFile } from '../../server/core/deploy/parsedFile';
import { isDeployConfig } from '../../server/core/deploy/recognise';
import { sameProblems, sameValue } from '../../server/core/deploy/sameParse';
import { splitSegments } from '../../server/core/deploy/yamlSegments';
import { MAX_NESTING } from '../../server/core/deploy/nesting';
import { MAX_BASE_CONFIG_BYTES, readBaseFile } from '../../server/lsp/baseFiles';
import { aliasBomb, deepFlow, manyAliases, mapAliasBomb } from './support/deployHostile';
import { assertLinear } from './support/linearity';
import { bigDeployFile } from '../integration/support/bigDeployFile';
import { FIXTURES, fixtureText, VIRTUAL } from './support/deployHelpers';

const CHARACTERS = [
  ':',
  '-',
  '#',
  ' ',
  '\n',
  '[',
  ']',
  '{',
  '}',
  '"',
  "'",
  ',',
  '&',
  '*',
  '!',
  '|',
  '>',
  '?',
  '\t',
  '%',
  'a',
  '1',
  '.',
  '\r',
];

function read(file: string): DeployFileText {
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
}

/** The analysis of a text parsed whole, bases too, with nothing cached. */
function fromScratch(file: string, text: string, readFile: (p: string) => DeployFileText): DeployAnalysis {
  const parsed = parseDeployFile(file, text);
  const load = (p: string) => {
    const base = readFile(p);
    return typeof base === 'string' ? parseDeployFile(p, base) : base;
  };
  return { file: parsed, isDeployConfig: isDeployConfig(parsed.root), effective: resolveEffectiveConfig(parsed, load) };
}

/** Diagnostics as plain data (locations read through their getters). */
function plain(diagnostics: readonly DeployDiagnostic[]): unknown {
  return diagnostics.map((d) => ({
    ...d,
    related: d.related.map((r) => ({
      message: r.message,
      file: r.location.file,
      range: r.location.range,
      start: r.location.startOffset,
      end: r.location.endOffset,
    })),
  }));
}

class Random {
  constructor(private seed: number) {}
  below(n: number): number {
    this.seed = (this.seed * 1103515245 + 12345) % 2 ** 31;
    return Math.floor((this.seed / 2 ** 31) * n);
  }
}

function singleCharacterEdit(text: string, random: Random): string {
  const at = random.below(text.length + 1);
  const ch = CHARACTERS[random.below(CHARACTERS.length)];
  switch (random.below(3)) {
    case 0:
      return text.slice(0, at) + text.slice(at + 1);
    case 1:
      return text.slice(0, at) + ch + text.slice(at);
    default:
      return text.slice(0, at) + ch + text.slice(at + 1);
  }
}

/**
 * `edits` random single-character edits in walks of `walk` edits from `base` (each version
 * one edit from the one before, the cache of pieces carried along); returns how many
 * versions were parsed in pieces rather than whole.
 */
function checkEdits(
  file: string,
  base: string,
  readFile: (p: string) => DeployFileText,
  edits: number,
  seed: number,
  walk = 8,
): number {
  const random = new Random(seed);
  const cache = new DeployFileCache(readFile);
  let text = base;
  let inPieces = 0;
  for (let i = -1; i < edits; i++) {
    if (i >= 0) text = i % walk === 0 ? singleCharacterEdit(base, random) : singleCharacterEdit(text, random);
    const incremental = analyzeDeployText(file, text, cache);
    if (i >= 0 && cache.lastParse(file)?.mode === 'pieces') inPieces++;
    const scratch = fromScratch(file, text, readFile);
    const where = `${path.basename(file)}, edit ${i}: ${JSON.stringify(text.length < 400 ? text : '(long)')}`;
    assert.ok(sameValue(incremental.file.root, scratch.file.root), `tree differs: ${where}`);
    assert.ok(sameProblems(incremental.file.problems, scratch.file.problems), `YAML problems differ: ${where}`);
    assert.deepEqual(incremental.file.lines.lineCount, scratch.file.lines.lineCount, where);
    assert.equal(incremental.isDeployConfig, scratch.isDeployConfig, where);
    assert.deepEqual(
      plain(deployDiagnostics(incremental)),
      plain(deployDiagnostics(scratch)),
      `diagnostics differ: ${where}`,
    );
  }
  return inPieces;
}

const REAL = fs
  .readdirSync(FIXTURES)
  .filter((f) => f.endsWith('.yaml'))
  .sort();

test('the eight real configs: random single-character edits, incremental = from scratch', () => {
  assert.equal(REAL.length, 8);
  let inPieces = 0;
  let total = 0;
  for (const [i, name] of REAL.entries()) {
    const edits = 120;
    inPieces += checkEdits(path.join(FIXTURES, name), fixtureText(name), read, edits, 1000 + i);
    total += edits;
  }
  // Most edits take the fast path. The rest: a tab, `&`, `*`, `%`, a lone carriage return,
  // `---`, or YAML broken so that a piece does not end where the split says (a stray quote,
  // a line outdented out of its stage), and the later edits of that walk, which keep the damage.
  assert.ok(inPieces > total * 0.5, `${inPieces} of ${total} edits parsed in pieces`);
});

const CRAFTED: Record<string, string> = {
  'anchors.yaml':
    'defaults: &d\n  max_num_seqs: 8\n  enforce_eager: yes\nstages:\n  - stage_id: 0\n    <<: *d\n    max_num_seqs: 16\n  - stage_id: 1\n    default_sampling_params: &s {temperature: 0.5}\n  - stage_id: 2\n    default_sampling_params: *s\n',
  'multi-document.yaml':
    'async_chunk: true\nstages:\n  - stage_id: 0\n    max_num_seqs: 4\n  - stage_id: 1\n    max_num_seqs: 4\n---\nextra: doc\n',
  'leading-marker.yaml':
    '--- # one document\nasync_chunk: true\nstages:\n  - stage_id: 0\n    max_num_seqs: 4\n  - stage_id: 1\n    max_num_seqs: 4\n',
  'tabs.yaml': 'async_chunk: true\nstages:\n  - stage_id: 0\n\tmax_num_seqs: 4\n  - stage_id: 1\n    devices: "0"\n',
  'invalid-mid-edit.yaml': fixtureText('qwen3_tts.yaml').replace(
    '    max_num_seqs: 64\n    gpu_memory_utilization: 0.3\n    trust_remote_code: true',
    '    max_num_seqs: [64\n    gpu_memory_utilization: 0.3\n    trust_remote_code: true',
  ),
  'flow-and-quotes.yaml':
    'connectors:\n  c: {name: SharedMemoryConnector, extra: {codec_chunk_frames: 25}}\nstages:\n  - stage_id: 0\n    devices: "0,\n      1"\n    output_connectors: {to_stage_1: c}\n  - stage_id: 1\n    engine_args: |\n      not: parsed\n    max_num_seqs: \'4\'\n',
  // A stage whose last value is empty ends where the next stage's `-` is, not at its line start.
  'empty-values.yaml':
    'stages:\n  - stage_id: 0\n    model_runner: #v2\n  - stage_id: 1\n    model_runner:\n  - stage_id: 2\n    engine_args:\n\n  - stage_id: 3\n',
  'crlf.yaml':
    'async_chunk: true\r\nstages:\r\n  - stage_id: 0\r\n    max_num_seqs: 4\r\n  - stage_id: 1\r\n    max_num_seqs: 4\r\n',
};

test('crafted broken files: anchors and aliases, several documents, tabs, invalid YAML mid-edit', () => {
  const byPath = new Map(Object.entries(CRAFTED).map(([name, text]) => [path.join(VIRTUAL, name), text]));
  const readVirtual = (p: string) => byPath.get(p);
  for (const [i, [name, text]] of Object.entries(CRAFTED).entries()) {
    checkEdits(path.join(VIRTUAL, name), text, readVirtual, 150, 2000 + i);
  }
});

test('the 5,000-line config: random single-character edits, incremental = from scratch', () => {
  const big = bigDeployFile();
  const file = path.join(VIRTUAL, 'big.yaml');
  const inPieces = checkEdits(file, big.text, () => undefined, 40, 3000, 4);
  assert.ok(inPieces >= 15, `${inPieces} of 40 edits parsed in pieces`);
});

test('an edit inside one stage parses that stage only; half-typed YAML too', () => {
  const big = bigDeployFile();
  const parser = new IncrementalDeployParser('/x/big.yaml');
  parser.parse(big.text);
  assert.deepEqual(parser.last, { mode: 'pieces', pieces: 3 + big.stageCount, parsedPieces: 3 + big.stageCount });
  const at = big.text.indexOf('max_num_seqs: 64', big.text.length / 2);
  const edited = `${big.text.slice(0, at)}max_num_seqs: 128${big.text.slice(at + 'max_num_seqs: 64'.length)}`;
  parser.parse(edited);
  assert.deepEqual(parser.last, { mode: 'pieces', pieces: 3 + big.stageCount, parsedPieces: 1 });
  // `    enfo` on a line of its own is not a map entry yet: the stage has an error, checked
  // against the next stage, and still parsed alone.
  const line = big.text.indexOf('\n', at);
  const halfTyped = `${big.text.slice(0, line)}\n    enfo${big.text.slice(line)}`;
  const result = parser.parse(halfTyped);
  assert.equal(parser.last.mode, 'pieces');
  assert.equal(parser.last.parsedPieces, 1);
  assert.deepEqual(
    result.problems.map((p) => [p.code, p.location.range.start.line]),
    parseDeployFile('/x/big.yaml', halfTyped).problems.map((p) => [p.code, p.location.range.start.line]),
  );
  assert.equal(result.problems.length > 0, true);
  // An unclosed `[` ends where the next stage starts (`yaml` stops it there): still in pieces.
  const unclosedFlow = `${big.text.slice(0, at)}max_num_seqs: [64${big.text.slice(at + 'max_num_seqs: 64'.length)}`;
  const flow = parser.parse(unclosedFlow);
  assert.deepEqual([parser.last.mode, parser.last.parsedPieces], ['pieces', 1]);
  assert.ok(sameValue(flow.root, parseDeployFile('/x/big.yaml', unclosedFlow).root));
  // An unclosed quote runs on into the next stage: the pieces do not match, the whole text is parsed.
  const quote = big.text.indexOf('devices: "0"', at);
  const unclosedQuote = `${big.text.slice(0, quote)}devices: "0${big.text.slice(quote + 'devices: "0"'.length)}`;
  const whole = parser.parse(unclosedQuote);
  assert.equal(parser.last.mode, 'whole');
  assert.ok(sameValue(whole.root, parseDeployFile('/x/big.yaml', unclosedQuote).root));
  assert.ok(sameProblems(whole.problems, parseDeployFile('/x/big.yaml', unclosedQuote).problems));
  // Fixed again: the stages parsed before are still known.
  parser.parse(big.text);
  assert.deepEqual([parser.last.mode, parser.last.parsedPieces], ['pieces', 1]);
});

test('the split: top-level entries and list items; refused where pieces could depend on each other', () => {
  const text =
    '# head\nmodel_runner: v2\nstages:  # the pipeline\n  # first\n  - stage_id: 0\n    x: 1\n  - stage_id: 1\nplatforms:\n  npu: {}\n';
  const split = splitSegments(text);
  assert.ok(split);
  assert.deepEqual(
    split.segments.map((s) => [s.kind, s.line, s.text, s.prefix, s.suffix]),
    [
      ['entries', 0, '# head\nmodel_runner: v2\n', '', ''],
      ['items', 2, 'stages:  # the pipeline\n  # first\n  - stage_id: 0\n    x: 1\n', '', '  '],
      ['items', 6, '  - stage_id: 1\n', 'stages:  # the pipeline\n  # first\n', ''],
      ['entries', 7, 'platforms:\n  npu: {}\n', '', ''],
    ],
  );
  for (const unsafe of [
    'a: &x 1\nb: *x\n',
    'a: 1\n---\nb: 2\n',
    '%YAML 1.1\n---\na: 1\nb: 2\n',
    'a: 1\n\tb: 2\nc: 3\n',
    'a: 1\rb: 2\nc: 3\n',
    'a: {x: 1}\n<<: {y: 2}\nb: 1\n',
  ]) {
    assert.equal(splitSegments(unsafe), null, unsafe);
  }
  assert.ok(splitSegments('---\na: 1\nb: 2\n'));
  assert.ok(splitSegments('# a *comment* & more\na: 1\nb: 2\n'));
  // Values agree with a whole parse, whatever the split.
  assert.deepEqual(
    toPlain(new IncrementalDeployParser('/x/t.yaml').parse(text).root!),
    toPlain(parseDeployFile('/x/t.yaml', text).root!),
  );
});

// Hostile files in the same property test: alias bombs (lists, and maps merged over a base
// holding the same bomb), thousands of aliases, nesting around and far past the limit (flow,
// compact block sequences, indentation), and bases that are special files, read by the
// language server's own reader (a FIFO, a link to /dev/zero, a link to /dev/stdin, a file
// over the size cap). Each edit: incremental = from scratch, and nothing takes long.
const HOSTILE: Record<string, string> = {
  'bomb.yaml': aliasBomb(8, 10),
  'bomb-in-sampling.yaml': aliasBomb(6, 10, 'default_sampling_params'),
  'map-bomb.yaml': `base_config: map-bomb-base.yaml\n${mapAliasBomb(8, 10)}`,
  'map-bomb-base.yaml': mapAliasBomb(8, 10),
  'aliases.yaml': manyAliases(150),
  'deep-flow.yaml': deepFlow(3000),
  'deep-flow-unclosed.yaml': `async_chunk: true\nstages:\n  - stage_id: 0\n    x: ${'{a: ['.repeat(2000)}\n  - stage_id: 1\n`,
  'at-the-limit.yaml': deepFlow(MAX_NESTING - 3),
  'past-the-limit.yaml': deepFlow(MAX_NESTING - 1),
  'deep-dashes.yaml': `stages:\n  - stage_id: 0\n    x:\n${'- '.repeat(500)}x\n`,
  'deep-indent.yaml': `stages:\n  - stage_id: 0\n    x:\n${Array.from({ length: 120 }, (_, i) => `${' '.repeat(i + 6)}k${i}:`).join('\n')} 1\n`,
  'deep-after-a-stage.yaml': `${fixtureText('qwen3_tts.yaml')}extra_top: ${'['.repeat(400)}\n`,
  'fifo-base.yaml': 'base_config: fifo.yaml\nasync_chunk: false\nstages:\n  - stage_id: 0\n    max_num_seqs: 4\n',
  'zero-base.yaml': 'base_config: zero.yaml\nstages:\n  - stage_id: 0\n',
  'stdin-base.yaml': 'base_config: stdin.yaml\nstages:\n  - stage_id: 0\n',
  'huge-base.yaml': 'base_config: huge.yaml\nstages:\n  - stage_id: 0\n',
};

/** The special files, as the language server's reader (baseFiles.ts) returns them. */
async function specialBases(): Promise<Map<string, DeployFileText>> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-special-'));
  try {
    execFileSync('mkfifo', [path.join(dir, 'fifo.yaml')]);
    fs.symlinkSync('/dev/zero', path.join(dir, 'zero.yaml'));
    fs.symlinkSync('/dev/stdin', path.join(dir, 'stdin.yaml'));
    fs.writeFileSync(path.join(dir, 'huge.yaml'), `async_chunk: true\n#${'x'.repeat(MAX_BASE_CONFIG_BYTES)}\n`);
    const read = new Map<string, DeployFileText>();
    for (const name of ['fifo.yaml', 'zero.yaml', 'stdin.yaml', 'huge.yaml'])
      read.set(path.join(VIRTUAL, name), await readBaseFile(path.join(dir, name)));
    return read;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

test('hostile files: alias bombs, thousands of aliases, deep nesting, special-file bases; incremental = from scratch', async () => {
  const special = await specialBases();
  const reasons = [...special.values()].map((text) => (isUnread(text) ? text.reason : text));
  assert.deepEqual(reasons.slice(0, 2), [
    'is a named pipe (FIFO), not a regular file',
    'is a character device, not a regular file',
  ]);
  assert.match(String(reasons[2]), /^is a .*, not a regular file$/); // /dev/stdin: /dev/null, a pipe or a socket, by how the test runs
  assert.equal(reasons[3], 'is 1.0 MB, more than the 1 MB a deploy config can be');
  const byPath = new Map<string, DeployFileText>([
    ...Object.entries(HOSTILE).map(([name, text]) => [path.join(VIRTUAL, name), text] as const),
    ...special,
  ]);
  const readVirtual = (p: string): DeployFileText => byPath.get(p);
  for (const [i, [name, text]] of Object.entries(HOSTILE).entries()) {
    const started = performance.now();
    checkEdits(
      path.join(VIRTUAL, name),
      text,
      readVirtual,
      name === 'aliases.yaml' || name.startsWith('deep-after') ? 10 : 25,
      4000 + i,
    );
    // Generous: what matters is seconds, not minutes or a crash (the whole test once took the process down).
    assert.ok(performance.now() - started < 30_000, `${name}: ${(performance.now() - started).toFixed(0)} ms`);
  }
});

test('nesting: refused past the limit with one diagnostic where it happens, the same whole and in pieces', () => {
  const at = parseDeployFile('/x/a.yaml', deepFlow(MAX_NESTING - 3));
  assert.deepEqual(at.problems, []);
  for (const text of [
    deepFlow(MAX_NESTING - 1),
    deepFlow(5000),
    `${fixtureText('qwen3_tts.yaml')}extra: ${'[{'.repeat(3000)}\n`,
  ]) {
    const whole = parseDeployFile('/x/b.yaml', text);
    assert.deepEqual(
      whole.problems.map((p) => p.code),
      ['yaml-too-deep'],
      text.slice(0, 80),
    );
    const pieces = new IncrementalDeployParser('/x/b.yaml').parse(text);
    assert.ok(sameValue(whole.root, pieces.root));
    assert.ok(sameProblems(whole.problems, pieces.problems));
  }
  // Before the deep entry, the file is read: a config with a deep last key keeps its stages.
  const tail = parseDeployFile('/x/c.yaml', `${fixtureText('qwen3_tts.yaml')}extra: ${'['.repeat(3000)}\n`);
  assert.equal(isDeployConfig(tail.root), true);
  assert.match(
    tail.problems[0].message,
    /^Nested more than 100 levels deep \(line \d+\): Stage Lens reads this file only up to line \d+\./,
  );
  // Deep text inside quotes, comments and block scalars is text, not nesting.
  for (const text of [
    `a: "${'['.repeat(500)}"\n`,
    `a: '${'{'.repeat(500)}'\n`,
    `a: 1 # ${'['.repeat(500)}\n`,
    `a: |\n  ${'['.repeat(500)}\nb: 2\n`,
    `a: x${'['.repeat(500)}\n`,
  ]) {
    assert.deepEqual(parseDeployFile('/x/d.yaml', text).problems, [], text.slice(0, 12));
  }
});

test('alias resolution is linear: parse time of n aliases against 4n', () => {
  assertLinear(
    'aliases',
    (n) => manyAliases(n),
    (text) => parseDeployFile('/x/aliases.yaml', text),
    { start: 200, targetMs: 8, maxN: 20_000 },
  );
  // And the 6,500 of the report (over 90 s before), with every alias read as its anchor.
  const started = performance.now();
  const parsed = parseDeployFile('/x/aliases.yaml', manyAliases(6500));
  const stages = valueOf(parsed.root, 'stages');
  assert.ok(
    isList(stages) &&
      stages.items.length === 6500 &&
      stages.items.every((stage) => scalarOf(stage, 'enforce_eager') === true),
  );
  assert.ok(performance.now() - started < 20_000, `${(performance.now() - started).toFixed(0)} ms`);
});

test('the split is linear, comment lines full of anchor marks included', () => {
  assertLinear(
    'a comment of anchors',
    (n) => `# ${'&a '.repeat(n)}\na: 1\nb: 2\n`,
    (text) => splitSegments(text),
    { start: 256, targetMs: 4, maxN: 2_000_000 },
  );
  assertLinear(
    'many stages',
    (n) => `stages:\n${'  - stage_id: 0\n    x: 1\n'.repeat(n)}`,
    (text) => splitSegments(text),
    { start: 64, targetMs: 4, maxN: 200_000 },
  );
  assert.ok(splitSegments(`# ${'&a '.repeat(10)}\na: 1\nb: 2\n`));
  assert.equal(splitSegments(`# ${'&a '.repeat(10)}\na: &x 1\nb: *x\n`), null);
});
