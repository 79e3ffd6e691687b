// The parser keeps per-layout state that only comes into play once a layout repeats: the
// name cell of each row (`| name<padding> |`), a compiled field-map builder per field list
// (after MAPS_BEFORE_COMPILING maps), a column's own field list from its first empty cell,
// and the heads of recent prefixes. These tests read many tables of one layout, with
// widths, values and empty cells changing from table to table, and compare every record
// with what the generator printed.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseLogText } from '../../server/core/log';
import { MAPS_BEFORE_COMPILING, buildFieldMap, compiledBuilderOf } from '../../server/core/log/fieldMaps';
import { FieldSchema } from '../../server/core/log/fieldSchema';
import { BLANK, NOT_MEASURED, cellToJson, measured, type Cell, type FieldMap } from '../../server/core/values';
import { ofKind, prng } from './support/logHelpers';

/** What a generated cell prints, and the cell the parser should read (an empty cell is BLANK). */
interface GeneratedCell {
  readonly text: string;
  readonly cell: Cell;
}

function randomCell(rand: () => number): GeneratedCell {
  const r = rand();
  if (r < 0.15) return { text: 'None', cell: NOT_MEASURED };
  if (r < 0.22) return { text: '', cell: BLANK };
  if (r < 0.3) {
    const mean = Math.round(rand() * 1e5) / 1000;
    const n = Math.floor(rand() * 300);
    return { text: `${mean.toFixed(3)} (n=${n})`, cell: measured(Number(mean.toFixed(3)), n) };
  }
  if (r < 0.35) {
    const text = rand() < 0.5 ? 'audio' : 'text';
    return { text, cell: { state: 'text', value: text } };
  }
  if (r < 0.45) {
    const v = Math.floor(rand() * 5000);
    return { text: v.toLocaleString('en-US'), cell: measured(v) };
  }
  const v = Math.round((rand() - 0.1) * 1e7) / 1000;
  return { text: v.toLocaleString('en-US', { minimumFractionDigits: 3, maximumFractionDigits: 3 }), cell: measured(v) };
}

/** PrettyTable as vLLM-Omni prints it: names left-aligned, values right-aligned, one width per column. */
function prettyTable(
  header: readonly string[],
  rows: ReadonlyArray<readonly string[]>,
  extraNameWidth: number,
): string[] {
  const widths = header.map(
    (h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? '').length)) + (c === 0 ? extraNameWidth : 0),
  );
  const border = '+' + widths.map((w) => '-'.repeat(w + 2)).join('+') + '+';
  const line = (cells: readonly string[]): string =>
    '|' +
    cells
      .map((cell, c) => ' ' + (c === 0 ? cell.padEnd(widths[c] as number) : cell.padStart(widths[c] as number)) + ' ')
      .join('|') +
    '|';
  return [border, line(header), border, ...rows.map(line), border];
}

interface Generated {
  readonly text: string;
  /** Expected fields per request id, per column. */
  readonly expected: Map<string, FieldMap[]>;
}

function generate(tables: number, names: readonly string[], seed: number): Generated {
  const rand = prng(seed);
  const expected = new Map<string, FieldMap[]>();
  const out: string[] = [];
  for (let t = 0; t < tables; t++) {
    const id = `req-${t}`;
    const columns = 2 + (t % 2);
    const fields: Record<string, Cell>[] = Array.from({ length: columns }, () => ({}));
    const rows = names.map((name) => {
      const cells = Array.from({ length: columns }, (_, c) => {
        const g = randomCell(rand);
        (fields[c] as Record<string, Cell>)[name] = g.cell;
        return g.text;
      });
      return [name, ...cells];
    });
    expected.set(id, fields);
    // The name column is sometimes wider than its longest name: the remembered name cell
    // must then not match, and the row is read the long way.
    const extra = t % 5 === 3 ? 4 : 0;
    const second = String(t % 60).padStart(2, '0');
    const prefix = `(APIServer pid=9) DEBUG 08-21 10:00:${second} [stats.py:672] `;
    const table = prettyTable(['Field', ...Array.from({ length: columns }, (_, c) => String(c))], rows, extra);
    out.push(...['', `[StageRequestStats [request_id=${id}]]`, ...table].map((line) => prefix + line));
    // A line of another call site between tables, as the server prints them.
    out.push(`(APIServer pid=9) INFO 08-21 10:00:${second} [stats.py:655] [OmniTiming] req=${id} total=1.00s`);
  }
  return { text: out.join('\n') + '\n', expected };
}

function assertRecords(generated: Generated, problemsAllowed = false): void {
  const out = parseLogText(generated.text);
  if (!problemsAllowed) assert.deepEqual(out.problems, []);
  const tables = ofKind(out, 'stageTable');
  assert.equal(tables.length, generated.expected.size);
  for (const table of tables) {
    const want = generated.expected.get(table.requestId);
    assert.ok(want !== undefined, table.requestId);
    assert.equal(table.columns.length, want.length);
    table.columns.forEach((column, c) => {
      assert.deepEqual({ ...column.fields }, want[c], `${table.requestId} column ${c}`);
      // Field order is the printed row order.
      assert.deepEqual(
        Object.keys(column.fields),
        Object.keys(want[c] as FieldMap),
        `${table.requestId} column ${c} order`,
      );
    });
  }
}

test(`${MAPS_BEFORE_COMPILING * 6} tables of one layout: every value as printed, past the compiled builders and across name-column widths`, () => {
  const names = [
    'audio_duration_s',
    'batch_size',
    'inter_output_latencies_ms',
    'num_tokens_in',
    'vllm_itls_ms',
    'vllm_queued_ms',
    'vllm_ttft_ms',
  ];
  assertRecords(generate(MAPS_BEFORE_COMPILING * 6, names, 7));
});

test('field names that need escaping in generated code are read exactly, before and after compiling', () => {
  const names = [
    'we"ird',
    "it's",
    'back\\slash',
    'line\u2028sep',
    '${x}',
    '*/ end',
    'constructor',
    'toString',
    '0',
    'ünïcode_ms',
    'a`b',
  ];
  assertRecords(generate(MAPS_BEFORE_COMPILING * 3, names, 11));
});

test('buildFieldMap: compiled and generic maps are the same, extras and small ints included', () => {
  const root = FieldSchema.root();
  let schema = root;
  for (const name of ['x', 'y', 'z']) schema = schema.child(name);
  const maps: FieldMap[] = [];
  for (let i = 0; i < MAPS_BEFORE_COMPILING + 3; i++) {
    maps.push(
      buildFieldMap(schema, {
        values: [i, 2.5 + i, 0],
        extras: i % 2 === 0 ? [undefined, undefined, NOT_MEASURED] : null,
      }),
    );
  }
  assert.notEqual(compiledBuilderOf(schema), null, 'compiled after MAPS_BEFORE_COMPILING maps');
  maps.forEach((map, i) => {
    assert.deepEqual(
      map,
      { x: measured(i), y: measured(2.5 + i), z: i % 2 === 0 ? NOT_MEASURED : measured(0) },
      `map ${i}`,
    );
    assert.deepEqual(Object.keys(map), ['x', 'y', 'z']);
  });
});

test('parsers share the compiled builder of a layout; another layout gets its own', () => {
  const layout = (root: FieldSchema, names: readonly string[]): FieldSchema =>
    names.reduce((s, name) => s.child(name), root);
  const fill = (schema: FieldSchema, offset: number): FieldMap[] =>
    Array.from({ length: MAPS_BEFORE_COMPILING + 1 }, (_, i) =>
      buildFieldMap(schema, { values: [offset + i, 0.5], extras: null }),
    );
  const first = layout(FieldSchema.root(), ['shared_a_ms', 'shared_b_ms']);
  const second = layout(FieldSchema.root(), ['shared_a_ms', 'shared_b_ms']);
  const other = layout(FieldSchema.root(), ['shared_a_ms', 'other_b_ms']);
  fill(first, 0);
  const maps = fill(second, 100);
  fill(other, 0);
  const builder = compiledBuilderOf(first);
  assert.notEqual(builder, null);
  assert.equal(compiledBuilderOf(second), builder, "the second parser reuses the first one's builder");
  assert.notEqual(compiledBuilderOf(other), null);
  assert.notEqual(compiledBuilderOf(other), builder);
  maps.forEach((map, i) =>
    assert.deepEqual(map, { shared_a_ms: measured(100 + i), shared_b_ms: measured(0.5) }, `map ${i}`),
  );
});

test('layouts of different widths, built in turn, each keep their own cells (the cells array is reused)', () => {
  const layout = (names: readonly string[]): FieldSchema =>
    names.reduce((s, name) => s.child(name), FieldSchema.root());
  const wide = layout(['w_a_ms', 'w_b_ms', 'w_c_ms', 'w_d_ms', 'w_e_ms']);
  const narrow = layout(['n_a_ms', 'n_b_ms']);
  const wideMaps: FieldMap[] = [];
  const narrowMaps: FieldMap[] = [];
  for (let i = 0; i < MAPS_BEFORE_COMPILING * 2; i++) {
    wideMaps.push(
      buildFieldMap(wide, {
        values: [i, i + 0.25, 5000 + i, 0, 7.5],
        extras: [undefined, undefined, undefined, NOT_MEASURED, undefined],
      }),
    );
    narrowMaps.push(buildFieldMap(narrow, { values: [100 + i, 9999.125], extras: null }));
  }
  assert.notEqual(compiledBuilderOf(wide), null);
  assert.notEqual(compiledBuilderOf(narrow), null);
  wideMaps.forEach((map, i) =>
    assert.deepEqual(
      map,
      {
        w_a_ms: measured(i),
        w_b_ms: measured(i + 0.25),
        w_c_ms: measured(5000 + i),
        w_d_ms: NOT_MEASURED,
        w_e_ms: measured(7.5),
      },
      `wide map ${i}`,
    ),
  );
  narrowMaps.forEach((map, i) =>
    assert.deepEqual(map, { n_a_ms: measured(100 + i), n_b_ms: measured(9999.125) }, `narrow map ${i}`),
  );
});

test('with code generation disallowed, the CLI reads the same records (the generic builder)', (t) => {
  const cli = join(__dirname, '..', '..', 'dist', 'cli.js');
  if (!existsSync(cli)) return t.skip('dist/cli.js not built (npm run build)');
  const dir = mkdtempSync(join(tmpdir(), 'stage-lens-codegen-'));
  try {
    const log = join(dir, 'server.log');
    const names = ['vllm_queued_ms', 'vllm_prefill_ms', 'vllm_decode_ms', 'vllm_ttft_ms'];
    const generated = generate(MAPS_BEFORE_COMPILING * 4, names, 5);
    writeFileSync(log, generated.text);
    const run = (flags: string[]): string => {
      const r = spawnSync(process.execPath, [...flags, cli, 'analyze', log, '--format', 'json'], { encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      return r.stdout;
    };
    const withoutCodegen = run(['--disallow-code-generation-from-strings']);
    const report = JSON.parse(withoutCodegen) as {
      requests: Array<{ requestId: string; stages: Record<string, { fields: Record<string, unknown> }> }>;
    };
    assert.equal(report.requests.length, generated.expected.size);
    for (const request of report.requests) {
      const want = generated.expected.get(request.requestId)?.[0];
      assert.ok(want !== undefined, request.requestId);
      const json = Object.fromEntries(Object.entries(want).map(([k, c]) => [k, cellToJson(c)]));
      assert.deepEqual(request.stages['0']?.fields, json, request.requestId);
    }
    assert.equal(run([]), withoutCodegen, 'the same report with compiled builders');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
