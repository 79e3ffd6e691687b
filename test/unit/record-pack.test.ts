// The parse worker's packing (server/core/log/recordPack.ts): every parse output of every log
// the project keeps, packed, passed through a structured clone (as postMessage passes it) and
// unpacked, equals the parser's, key order included, and small-integer cells are the shared ones.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LogStreamParser } from '../../server/core/log';
import { hostileNamesLog } from './support/hostileNamesLog';
import { measuredCell } from '../../server/core/log/fieldMaps';
import type { PackedBatch } from '../../server/core/log/recordPack';
import { RecordPacker } from '../../server/core/log/recordPacker';
import { RecordUnpacker } from '../../server/core/log/recordUnpacker';
import type { LogRecord, ParseOutput } from '../../server/core/records';
import { measured, type FieldMap } from '../../server/core/values';
import { generateBenchLog } from '../../scripts/bench/generateLog';

const ROOT = path.resolve(__dirname, '..', '..');

function logsUnder(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return logsUnder(file);
    return name.endsWith('.log') || name.endsWith('.jsonl') ? [file] : [];
  });
}

/** Each key of every object, in order, with its path: deepStrictEqual does not compare key order. */
function keyOrder(value: unknown, at = '', out: string[] = []): string[] {
  if (value === null || typeof value !== 'object') return out;
  for (const key of Object.keys(value)) {
    out.push(`${at}.${key}`);
    keyOrder((value as Record<string, unknown>)[key], `${at}.${key}`, out);
  }
  return out;
}

/** The parser's outputs for `bytes` pushed in `pieceBytes` pieces, and its end's. */
function parseOutputs(bytes: Buffer, pieceBytes: number): ParseOutput[] {
  const parser = new LogStreamParser();
  const outputs: ParseOutput[] = [];
  for (let at = 0; at < bytes.length; at += pieceBytes) outputs.push(parser.push(bytes.subarray(at, at + pieceBytes)));
  outputs.push(parser.end());
  return outputs;
}

/** The outputs packed in batches of `perBatch`, cloned as postMessage clones them, and unpacked. */
function roundTrip(outputs: readonly ParseOutput[], perBatch: number): ParseOutput[] {
  const packer = new RecordPacker();
  const batches: PackedBatch[] = [];
  outputs.forEach((output, i) => {
    packer.add(output);
    if ((i + 1) % perBatch === 0) batches.push(packer.take());
  });
  if (!packer.isEmpty) batches.push(packer.take());
  const unpacker = new RecordUnpacker();
  return batches.flatMap((batch) => [
    ...unpacker.outputs(structuredClone(batch, { transfer: [batch.tags.buffer, batch.numbers.buffer] })),
  ]);
}

function assertRoundTrip(name: string, outputs: readonly ParseOutput[], perBatch: number): void {
  const back = roundTrip(outputs, perBatch);
  assert.deepStrictEqual(back, outputs, name);
  assert.deepStrictEqual(keyOrder(back), keyOrder(outputs), `${name}: key order`);
}

function recordsOf(outputs: readonly ParseOutput[]): LogRecord[] {
  return outputs.flatMap((o) => o.records);
}

const fixtureLogs = [...logsUnder(path.join(ROOT, 'samples')), ...logsUnder(path.join(ROOT, 'test', 'fixtures'))];

test('every fixture log: unpacked outputs equal the parser outputs, key order included, in pieces of any size', () => {
  assert.ok(fixtureLogs.length >= 50, `fixture logs found: ${fixtureLogs.length}`);
  const kinds = new Set<string>();
  for (const file of fixtureLogs) {
    let bytes = readFileSync(file);
    // A real-logs file's first line names its source.
    if (file.includes(`${path.sep}real-logs${path.sep}`)) bytes = bytes.subarray(bytes.indexOf(10) + 1);
    for (const [pieceBytes, perBatch] of [
      [1 << 16, 16],
      [97, 3],
      [7, 1],
    ] as const) {
      const outputs = parseOutputs(bytes, pieceBytes);
      for (const r of recordsOf(outputs)) kinds.add(r.kind);
      assertRoundTrip(`${path.relative(ROOT, file)} in ${pieceBytes}-byte pieces`, outputs, perBatch);
    }
  }
  // The packed kinds and those sent as they are were all met.
  for (const kind of ['stageTable', 'transferTable', 'requestE2E', 'omniTiming', 'overallSummary', 'engineStats'])
    assert.ok(kinds.has(kind), kind);
});

test('a generated log: unpacked outputs equal the parser outputs, and small integers keep their shared cells', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'stage-lens-record-pack-'));
  try {
    const file = path.join(dir, 'bench.log');
    generateBenchLog(file, 3_000_000, 11);
    const outputs = parseOutputs(readFileSync(file), 1 << 16);
    assertRoundTrip('generated', outputs, 4);
    const back = recordsOf(roundTrip(outputs, 4));
    const table = back.find((r) => r.kind === 'stageTable');
    assert.ok(table?.kind === 'stageTable');
    const batchSize = table.columns[0]?.fields['batch_size'];
    assert.deepEqual(batchSize, { state: 'measured', value: 1 });
    assert.equal(batchSize, measuredCell(1));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('hostile names (quotes, non-ASCII, integer-like, __proto__) and a field map with its own __proto__ key', () => {
  const outputs = parseOutputs(Buffer.from(hostileNamesLog()), 1 << 16);
  assert.ok(
    recordsOf(outputs).some((r) => r.kind === 'stageTable' && r.rows.includes('toJSON') && r.rows.includes('10')),
  );
  assertRoundTrip('hostile names', outputs, 1);
  const own: FieldMap = Object.defineProperty({ a: measured(2.5) } as FieldMap, '__proto__', {
    value: measured(1),
    enumerable: true,
    writable: true,
  });
  const e2e: LogRecord = {
    kind: 'requestE2E',
    line: 1,
    header: null,
    requestId: 'r',
    identity: { request_id: 'r' },
    fields: own,
    complete: true,
  };
  const back = roundTrip([{ records: [e2e, e2e], problems: [{ line: 1, message: 'm' }] }], 1);
  assert.deepStrictEqual(back, [{ records: [e2e, e2e], problems: [{ line: 1, message: 'm' }] }]);
  assert.deepStrictEqual(keyOrder(back), keyOrder([{ records: [e2e, e2e], problems: [{ line: 1, message: 'm' }] }]));
});
