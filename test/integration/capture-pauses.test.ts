// Live capture against reading the same bytes at once: a real launched process prints a
// real log with pauses inside a table, between the tables of one request, right after a
// table's title or lead-in, and between requests, each at several lengths (shorter and
// longer than the 300 ms a quiet stream waits before it finalizes a request). The live
// session, the same session replayed from its stored files by a new registry, and the
// parser run over the whole file must give the same requests, value for value; a pause
// between requests still shows the finished request during the pause. Then a process
// killed 600 ms after printing half a table, and a process writing to a real file that a
// tail session follows.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SessionRegistry } from '../../server/capture/sessionRegistry';
import { realSourceFactories } from '../../server/capture/sourceFactories';
import { LogStreamParser } from '../../server/core/log';
import { StreamAnalysis } from '../../server/core/analysis/streamAnalysis';
import type { AnalyzedRequest } from '../../server/core/analysis/types';
import type { SessionInfo } from '../../server/protocol';
import { waitFor } from './support/waitFor';

const ROOT = path.resolve(__dirname, '..', '..');
const SAMPLE = path.join(ROOT, 'samples', 'qwen3-tts-first-audio-cold-start.log');
const WRITER = path.join(ROOT, 'test', 'fixtures', 'paced', 'paced-writer.mjs');
const storage = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-pauses-'));
after(() => fs.rmSync(storage, { recursive: true, force: true }));

const bytes = fs.readFileSync(SAMPLE);

/** Start of the line holding byte `i`. */
function lineStart(i: number): number {
  return bytes.lastIndexOf(0x0a, i - 1) + 1;
}

/** Just after the end of the line holding byte `i`. */
function lineEnd(i: number): number {
  return bytes.indexOf(0x0a, i) + 1;
}

function nth(needle: string, n: number, from = 0): number {
  let at = from - 1;
  for (let k = 0; k <= n; k++) {
    at = bytes.indexOf(needle, at + 1);
    if (at < 0) throw new Error(`no ${n}th ${needle}`);
  }
  return at;
}

/** Places in the k-th request's printout (0-based, calls start at `[Overall Summary]`). */
function placesOf(
  k: number,
): Record<'insideTable' | 'betweenTables' | 'afterTitle' | 'afterLeadIn' | 'betweenRequests', number> {
  const call = nth('[Overall Summary]', k);
  const stageTitle = bytes.indexOf('[StageRequestStats', call);
  return {
    insideTable: bytes.indexOf('| vllm_prefill_ms', stageTitle) + 10,
    betweenTables: lineStart(bytes.indexOf('[OmniTiming]', call)),
    afterTitle: lineEnd(stageTitle),
    afterLeadIn: lineStart(stageTitle),
    // The stage table is the request's last; the next line is the next request's access log.
    betweenRequests: lineStart(bytes.indexOf('"POST /v1/audio/speech', stageTitle)),
  };
}

function analyseAtOnce(data: Buffer): AnalyzedRequest[] {
  const analysis = new StreamAnalysis();
  const parser = new LogStreamParser();
  analysis.ingest(parser.push(data));
  analysis.ingest(parser.end());
  analysis.flush();
  return [...analysis.requests];
}

interface Run {
  readonly registry: SessionRegistry;
  readonly changes: { at: number; info: SessionInfo }[];
  readonly pauses: { at: number; offset: number; ms: number }[];
}

function newRegistry(): Run {
  const changes: Run['changes'] = [];
  const pauses: Run['pauses'] = [];
  const registry = new SessionRegistry(
    storage,
    realSourceFactories(() => undefined),
    {
      sessionChanged: (info) => changes.push({ at: Date.now(), info }),
      rawOutput: (_id, stream, text) => {
        if (stream !== 'stderr') return;
        for (const m of text.matchAll(/pause (\d+) (-?\d+)/g))
          pauses.push({ at: Date.now(), offset: Number(m[1]), ms: Number(m[2]) });
      },
    },
    { scanIntervalMs: 0 },
  );
  registry.loadSaved();
  return { registry, changes, pauses };
}

async function replayed(id: string): Promise<AnalyzedRequest[]> {
  const { registry } = newRegistry();
  try {
    return [...(await registry.open(id)).requests()];
  } finally {
    await registry.dispose();
  }
}

const LENGTHS_MS = [120, 400, 900];

test(
  'pauses inside and between the tables of a request never split it: live = replay = all at once',
  { timeout: 60_000 },
  async () => {
    const expected = analyseAtOnce(bytes);
    assert.equal(expected.length, 25);
    const plan: [number, number][] = [];
    const kinds = ['insideTable', 'betweenTables', 'afterTitle', 'afterLeadIn', 'betweenRequests'] as const;
    const boundaryPauses: { request: number; ms: number; offset: number }[] = [];
    let k = 2;
    for (const kind of kinds) {
      for (const ms of LENGTHS_MS) {
        const offset = placesOf(k)[kind];
        plan.push([offset, ms]);
        if (kind === 'betweenRequests') boundaryPauses.push({ request: k, ms, offset });
        k++;
      }
    }
    plan.sort((a, b) => a[0] - b[0]);

    const run = newRegistry();
    const launched = run.registry.launch({ argv: [process.execPath, WRITER, SAMPLE, JSON.stringify(plan)], cwd: ROOT });
    await waitFor(
      'the writer to finish',
      () => (run.registry.get(launched.id)?.info.status === 'exited' ? true : undefined),
      30_000,
    );
    const live = [...run.registry.require(launched.id).requests()];
    await run.registry.dispose();

    assert.deepEqual(
      live.map((r) => r.requestId),
      expected.map((r) => r.requestId),
      'no request split in two (no "#2")',
    );
    assert.deepEqual(live, expected, 'every value as read at once');
    assert.deepEqual(await replayed(launched.id), expected, 'the stored bytes replay to the same requests');

    // A long pause between requests still shows the request that just finished, during the pause
    // (300 ms of quiet, then the next notification: at most 250 ms later).
    assert.equal(run.pauses.length, plan.length);
    for (const b of boundaryPauses.filter((p) => p.ms >= 900)) {
      const pause = run.pauses.find((p) => p.offset === b.offset);
      assert.ok(pause !== undefined);
      const shown = run.changes.find(
        (c) =>
          c.info.id === launched.id &&
          c.info.requestCount === b.request + 1 &&
          c.at >= pause.at &&
          c.at < pause.at + b.ms,
      );
      assert.ok(shown !== undefined, `request ${b.request + 1} shown during the ${b.ms} ms pause after it`);
    }
  },
);

test('a process killed 600 ms after printing half a table: live = replay', { timeout: 30_000 }, async () => {
  const cut = placesOf(6).insideTable;
  const run = newRegistry();
  const launched = run.registry.launch({
    argv: [process.execPath, WRITER, SAMPLE, JSON.stringify([[cut, -1]])],
    cwd: ROOT,
  });
  await waitFor('the writer to stop mid-table', () => (run.pauses.length === 1 ? true : undefined), 10_000);
  await new Promise((r) => setTimeout(r, 600));
  await run.registry.stop(launched.id);
  const live = [...run.registry.require(launched.id).requests()];
  await run.registry.dispose();
  const expected = analyseAtOnce(bytes.subarray(0, cut));
  assert.equal(expected.length, 7);
  assert.equal(expected[6]?.complete, false, 'the cut table is kept, marked incomplete');
  assert.deepEqual(
    live.map((r) => r.requestId),
    expected.map((r) => r.requestId),
  );
  assert.deepEqual(live, expected);
  assert.deepEqual(await replayed(launched.id), expected);
});

test(
  'a process writing a real file with pauses, followed by a tail session: live = replay = all at once',
  { timeout: 60_000 },
  async () => {
    const plan: [number, number][] = [
      [placesOf(3).insideTable, 900],
      [placesOf(4).betweenTables, 900],
      [placesOf(5).afterTitle, 700],
      [placesOf(6).betweenRequests, 900],
    ];
    const logFile = path.join(storage, 'server.log');
    const out = fs.openSync(logFile, 'w');
    const writer = spawn(process.execPath, [WRITER, SAMPLE, JSON.stringify(plan)], {
      stdio: ['ignore', out, 'ignore'],
    });
    fs.closeSync(out);
    const run = newRegistry();
    const tailed = run.registry.tail({ path: logFile, fromStart: true });
    await new Promise((r) => writer.once('exit', r));
    const expected = analyseAtOnce(bytes);
    await waitFor(
      'the tail to read the whole file',
      () => (run.registry.get(tailed.id)?.info.requestCount === expected.length ? true : undefined),
      15_000,
    );
    await run.registry.stop(tailed.id);
    const live = [...run.registry.require(tailed.id).requests()];
    await run.registry.dispose();
    assert.deepEqual(
      live.map((r) => r.requestId),
      expected.map((r) => r.requestId),
    );
    assert.deepEqual(live, expected);
    assert.deepEqual(await replayed(tailed.id), expected);
  },
);
