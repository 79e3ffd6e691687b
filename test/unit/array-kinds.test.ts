// Hot code over a request's stages and a table's columns is compiled for the kind of array
// it has seen (packed or holey); an array of the other kind later throws that code away and
// has it compiled again (~20 ms of compiler time per function on a long log). Array.prototype
// .map makes packed arrays when the interpreter runs it and holey ones once the optimizing
// compiler has inlined it, so these arrays are made by mapPacked. Checked with V8's own test
// functions, in a child process started with --allow-natives-syntax.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const FIXTURES = join(ROOT, 'test', 'fixtures', 'upstream-rendered');

/** Runs `body` (CommonJS, `src(path)` requires a source module, `natives` runs V8's test functions) in a child; its stdout as JSON. */
function inChild(body: string, args: readonly string[] = []): Record<string, unknown> {
  const script = `
const src = (path) => require(${JSON.stringify(ROOT)} + '/' + path);
const natives = {
  isHoley: new Function('a', 'return %HasHoleyElements(a)'),
  /** Has V8 optimize f, after calls that give it type feedback. */
  optimize: new Function('f', 'warm', '%PrepareFunctionForOptimization(f); warm(); warm(); %OptimizeFunctionOnNextCall(f); warm();'),
};
${body}`;
  const child = spawnSync(process.execPath, ['--allow-natives-syntax', '--import', 'tsx', '--eval', script, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  assert.equal(child.status, 0, child.stderr);
  return JSON.parse(child.stdout) as Record<string, unknown>;
}

test('mapPacked makes packed arrays, interpreted and optimized; map makes holey ones once optimized', () => {
  const got = inChild(`
const { mapPacked } = src('server/core/arrays.ts');
const viaMap = (a) => a.map((x) => ({ x }));
const viaMapPacked = (a) => mapPacked(a, (x) => ({ x }));
const out = { map: natives.isHoley(viaMap([1, 2])), mapPacked: natives.isHoley(viaMapPacked([1, 2])) };
natives.optimize(viaMap, () => viaMap([1, 2]));
natives.optimize(viaMapPacked, () => viaMapPacked([1, 2]));
out.optimizedMap = natives.isHoley(viaMap([1, 2]));
out.optimizedMapPacked = natives.isHoley(viaMapPacked([1, 2]));
out.values = viaMapPacked([3, 4]).map((o) => o.x);
process.stdout.write(JSON.stringify(out));
`);
  assert.deepEqual(got, {
    map: false,
    mapPacked: false,
    optimizedMap: true,
    optimizedMapPacked: false,
    values: [3, 4],
  });
});

test('the stages of requests read from the upstream logs are packed arrays, with the functions that make them optimized', () => {
  const logs = [
    'qwen3-omni-three-stage-transfers.log',
    'qwen3tts-talker-first-audio-after-fix.log',
    'qwen3tts-info-level-omnitiming-only.log',
  ].map((name) => join(FIXTURES, name));
  const got = inChild(
    `
const { readFileSync } = require('node:fs');
const { LogStreamParser } = src('server/core/log/index.ts');
const { StreamAnalysis } = src('server/core/analysis/streamAnalysis.ts');
const stageBuilder = src('server/core/analysis/stageBuilder.ts');
const counts = { requests: 0, fromTables: 0, fromTiming: 0, holey: 0 };
function read(files) {
  const analysis = new StreamAnalysis({
    keepRequests: false,
    onRequest: (r) => {
      counts.requests++;
      if (r.hasStageTable) counts.fromTables++;
      else counts.fromTiming++;
      if (natives.isHoley(r.stages)) counts.holey++;
    },
  });
  for (const file of files) {
    const parser = new LogStreamParser();
    for (const out of [parser.push(readFileSync(file)), parser.end()]) analysis.ingest(out);
  }
  analysis.flush();
}
const files = process.argv.slice(1);
natives.optimize(stageBuilder.stagesFromColumns, () => read(files));
natives.optimize(stageBuilder.stagesFromTiming, () => read(files));
for (const key of Object.keys(counts)) counts[key] = 0;
read(files);
process.stdout.write(JSON.stringify(counts));
`,
    logs,
  );
  assert.ok((got['fromTables'] as number) >= 5 && (got['fromTiming'] as number) >= 5, JSON.stringify(got));
  assert.equal(got['holey'], 0);
});
