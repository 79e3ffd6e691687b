// Result counting shared by both harness entries. Each entry prints its own closing line
// `N passed, N failed[, N skipped]` and writes test-output/editor/<kind>.summary.json,
// which run.sh adds up into the combined closing line.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { outputDir } from './config';

export interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}

export function summaryLine(c: Counts): string {
  return `${c.passed} passed, ${c.failed} failed${c.skipped > 0 ? `, ${c.skipped} skipped` : ''}`;
}

const summaryRe = /^(\d+) passed, (\d+) failed(?:, (\d+) skipped)?$/;

export function parseSummaryLine(line: string): Counts | undefined {
  const m = summaryRe.exec(line.trim());
  if (!m) return undefined;
  return { passed: Number(m[1]), failed: Number(m[2]), skipped: Number(m[3] ?? 0) };
}

export function isSummaryLine(line: string): boolean {
  return summaryRe.test(line.trim());
}

export function writeSummary(kind: string, c: Counts): void {
  fs.mkdirSync(outputDir, { recursive: true });
  fs.writeFileSync(path.join(outputDir, `${kind}.summary.json`), JSON.stringify(c) + '\n');
}

/**
 * Prints the closing line and exits: 0 only if nothing failed and at least one test ran.
 * A harness-level problem (timeout, crash, no test ran) counts as one more failure.
 */
export function finish(kind: string, counts: Counts, harnessFailure?: string): never {
  let problem = harnessFailure;
  if (!problem && counts.passed + counts.failed === 0) problem = 'no test ran';
  const c: Counts = problem ? { ...counts, failed: counts.failed + 1 } : counts;
  if (problem) console.error(`FAIL ${kind}: ${problem}`);
  writeSummary(kind, c);
  console.log(summaryLine(c));
  process.exit(c.failed === 0 ? 0 : 1);
}
