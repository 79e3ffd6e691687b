// Helpers shared by the log parser tests (not a test file itself).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LogStreamParser, type LogStreamParserOptions } from '../../../server/core/log';
import type { LogRecord, ParseOutput } from '../../../server/core/records';
import type { FieldMap } from '../../../server/core/values';
import { mulberry32 } from '../../../server/simulate/seededRandom';

export const FIXTURES = join(__dirname, '..', '..', 'fixtures');

/** A real excerpt without its first line (`# source: ...`), as the server printed it. */
export function realLog(name: string): string {
  const text = readFileSync(join(FIXTURES, 'real-logs', name), 'utf8');
  assert.ok(text.startsWith('# source:'), `${name} starts with its source line`);
  return text.slice(text.indexOf('\n') + 1);
}

export function fixtureLog(name: string): string {
  return readFileSync(join(FIXTURES, 'logs', name), 'utf8');
}

/**
 * An excerpt of the upstream-rendered DEBUG log of today's stats code (every table at DEBUG) with
 * only the lines a grep for `Overall Summary` and `OmniTiming` keeps: its [Overall Summary] tables
 * and, with `omniTiming`, its [OmniTiming] lines; no per-request table.
 */
export function overallSummaryExcerpt(omniTiming: boolean): string {
  const lines = readFileSync(
    join(FIXTURES, 'upstream-rendered', 'qwen3tts-talker-first-audio-after-fix.log'),
    'utf8',
  ).split('\n');
  const kept: string[] = [];
  let inSummary = false;
  for (const line of lines) {
    if (line.includes('[Overall Summary]')) inSummary = true;
    else if (/\[(RequestE2EStats|StageRequestStats|TransferEdgeStats) /.test(line)) inSummary = false;
    if (line.includes('[OmniTiming]')) {
      if (omniTiming) kept.push(line);
    } else if (inSummary) kept.push(line);
  }
  return kept.join('\n') + '\n';
}

export const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

/** Feeds the chunks in order, then ends; everything the parser returned, concatenated. */
export function parseChunks(chunks: ReadonlyArray<Uint8Array | string>, options?: LogStreamParserOptions): ParseOutput {
  const parser = new LogStreamParser(options);
  const records: LogRecord[] = [];
  const problems: ParseOutput['problems'] = [];
  for (const chunk of chunks) {
    const out = parser.push(chunk);
    records.push(...out.records);
    problems.push(...out.problems);
  }
  const last = parser.end();
  records.push(...last.records);
  problems.push(...last.problems);
  return { records, problems };
}

export function parseBytes(bytes: Uint8Array, options?: LogStreamParserOptions): ParseOutput {
  return parseChunks([bytes], options);
}

/** Records of one kind, typed. */
export function ofKind<K extends LogRecord['kind']>(out: ParseOutput, kind: K): Array<Extract<LogRecord, { kind: K }>> {
  return out.records.filter((r): r is Extract<LogRecord, { kind: K }> => r.kind === kind);
}

/** The only record of a kind. */
export function single<K extends LogRecord['kind']>(out: ParseOutput, kind: K): Extract<LogRecord, { kind: K }> {
  const found = ofKind(out, kind);
  assert.equal(found.length, 1, `exactly one ${kind} record`);
  return found[0] as Extract<LogRecord, { kind: K }>;
}

/** The measured number of a field; fails when the field is not a measured number. */
export function num(fields: FieldMap, name: string): number {
  const cell = fields[name];
  assert.ok(cell !== undefined, `field ${name} is present`);
  assert.equal(cell.state, 'measured', `field ${name} is measured`);
  return cell.state === 'measured' ? cell.value : NaN;
}

/** Measured values of a FieldMap as a plain object (for whole-table comparisons). */
export function numbers(fields: FieldMap): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, c] of Object.entries(fields)) if (c.state === 'measured') out[k] = c.value;
  return out;
}

/** mulberry32: a small deterministic PRNG for the chunking and fuzz tests. */
export const prng = mulberry32;
