// Logs printed by vLLM-Omni's own stats code (test/fixtures/upstream-rendered, see its
// README), each read by the real CLI (`node dist/cli.js analyze <log> --format json`, a child
// process) and checked against EVERY value of its `expected.json`: printed numbers, None as
// null, hidden rows absent (with the hidden state where a split value reads them), blank cells
// "", `mean (n=N)` cells as the mean with N in listCounts, the RequestE2EStats and Overall
// Summary tables, transfers per edge, and the [OmniTiming] parts. Every `*.log` of the folder
// with an `*.expected.json` is checked, so a log added there is checked the same way.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildBundles } from './support/buildBundles';

const ROOT = path.resolve(__dirname, '..', '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
const DIR = path.join(ROOT, 'test', 'fixtures', 'upstream-rendered');

before(() => {
  buildBundles('cli');
});

// ---- expected.json, as its `value_encoding` describes it

type Printed = number | string | null | { readonly mean: number; readonly n: number };
type PrintedTable = Readonly<Record<string, Printed>>;

interface Part<T> {
  readonly printed: boolean;
  readonly table: T;
}

interface ExpectedRequest {
  readonly order: number;
  readonly log_time: string;
  readonly overall_summary: Part<PrintedTable>;
  readonly e2e: Part<PrintedTable>;
  readonly stages: Part<Readonly<Record<string, PrintedTable>>> & { readonly columns?: readonly string[] };
  readonly transfers: Part<Readonly<Record<string, PrintedTable>>>;
  readonly omnitiming: {
    readonly total_s: number | 'absent';
    readonly engine_s: number | 'absent';
    readonly preprocess_s: number | 'absent';
    readonly stages_s: Readonly<Record<string, number>>;
    readonly transfers_tx_ms: Readonly<Record<string, number>>;
    readonly ar2diffusion_ms: number | 'absent';
  } | null;
  readonly checks?: readonly { readonly stage: string; readonly check: string; readonly holds: boolean }[];
}

interface Expected {
  readonly value_encoding: Readonly<Record<string, string>>;
  readonly requests: Readonly<Record<string, ExpectedRequest>>;
}

// ---- the report

type Cell = number | string | null;
interface Report {
  requests: {
    requestId: string;
    timestamp: string | null;
    stageTable: boolean;
    stages: Record<
      string,
      {
        fields: Record<string, Cell>;
        listCounts: Record<string, number>;
        splitState: Record<string, string>;
        prefillCoversDecode: boolean;
      }
    >;
    e2e: Record<string, Cell>;
    transfers: Record<
      string,
      {
        fromStage: number | null;
        toStage: number | null;
        fields: Record<string, Cell>;
        tablePrinted: boolean;
        omniTimingTxMs: number | null;
        omniTimingTxState: string;
      }
    >;
    omniTiming: {
      totalS: number | null;
      preprocessS: number | null;
      engineS: number | null;
      stages: Record<string, number>;
      transfers: Record<string, number>;
      ar2diffusionMs: number | null;
    } | null;
    overallSummary: { line: number; fields: Record<string, Cell> } | null;
  }[];
  findings: { code: string; stageId: number | null; requestIds: string[] }[];
  problems: { line: number; message: string }[];
}

/** The split value a log field feeds, and the documented rules that may stand in for a hidden row. */
const SPLIT_OF: Readonly<Record<string, { readonly name: string; readonly rules: readonly string[] }>> = {
  vllm_queued_ms: { name: 'queuedMs', rules: [] },
  vllm_input_wait_ms: { name: 'inputWaitMs', rules: ['inferred'] },
  vllm_ready_queued_ms: { name: 'readyQueuedMs', rules: ['inferred'] },
  vllm_prefill_ms: { name: 'prefillMs', rules: [] },
  vllm_decode_ms: { name: 'decodeMs', rules: [] },
  vllm_ttft_ms: { name: 'ttftMs', rules: ['notRecorded'] },
};

/** Checks one printed table against its report form; returns how many values were checked. */
function checkTable(
  where: string,
  want: PrintedTable,
  fields: Record<string, Cell>,
  listCounts: Record<string, number> | null,
  splitState: Record<string, string> | null,
  prefillCoversDecode = false,
): number {
  let checked = 0;
  for (const [name, value] of Object.entries(want)) {
    const at = `${where} ${name}`;
    checked += 1;
    if (value === 'hidden') {
      assert.ok(!(name in fields), `${at}: a hidden row is absent (got ${JSON.stringify(fields[name])})`);
      const split = SPLIT_OF[name];
      if (split !== undefined && splitState !== null) {
        const state = splitState[split.name];
        // A one-output stage's decode is inside its prefill figure: reported not recorded, never a hidden 0.
        const allowed = split.name === 'decodeMs' && prefillCoversDecode ? ['notRecorded'] : ['hidden', ...split.rules];
        assert.ok(allowed.includes(state ?? ''), `${at}: split ${split.name} is ${allowed.join(' or ')}, got ${state}`);
      }
    } else if (value !== null && typeof value === 'object') {
      assert.equal(fields[name], value.mean, `${at}: a list cell's mean`);
      assert.ok(listCounts !== null, `${at}: a list cell where no counts are kept`);
      assert.equal(listCounts[name], value.n, `${at}: a list cell's n`);
    } else {
      assert.ok(name in fields, `${at}: printed (${JSON.stringify(value)}) but absent`);
      assert.strictEqual(fields[name], value, at);
      if (listCounts !== null) assert.ok(!(name in listCounts), `${at}: not a list cell, no count`);
      const split = SPLIT_OF[name];
      if (split !== undefined && splitState !== null && value === null)
        assert.equal(splitState[split.name], 'notMeasured', `${at}: None is not measured`);
    }
  }
  // Nothing printed that the expectation does not name.
  for (const name of Object.keys(fields)) assert.ok(name in want, `${where}: ${name} is not in expected.json`);
  return checked;
}

const absentAsNull = (v: number | 'absent'): number | null => (v === 'absent' ? null : v);

function checkRequest(rid: string, want: ExpectedRequest, report: Report): number {
  const index = report.requests.findIndex((r) => r.requestId === rid);
  assert.ok(index >= 0, `${rid}: in the report`);
  assert.equal(index, want.order, `${rid}: in log order`);
  const got = report.requests[index]!;
  let checked = 2;
  assert.equal(got.timestamp, want.log_time, `${rid}: log time`);

  // [StageRequestStats]
  assert.equal(got.stageTable, want.stages.printed, `${rid}: stage table printed`);
  if (want.stages.printed) assert.deepEqual(Object.keys(got.stages), want.stages.columns, `${rid}: stage columns`);
  for (const [column, table] of Object.entries(want.stages.table)) {
    const stage = got.stages[column];
    if (want.stages.printed) {
      assert.ok(stage !== undefined, `${rid} stage ${column}`);
      checked += checkTable(
        `${rid} stage ${column}`,
        table,
        stage.fields,
        stage.listCounts,
        stage.splitState,
        stage.prefillCoversDecode,
      );
    } else {
      // No table (INFO): every row is unknown, and the split says so; the stage times come from [OmniTiming].
      for (const [name, value] of Object.entries(table)) {
        assert.equal(value, 'hidden', `${rid} stage ${column} ${name}: no table, so hidden`);
        assert.ok(stage === undefined || !(name in stage.fields), `${rid} stage ${column} ${name}: absent`);
        checked += 1;
      }
      // The rows are absent (the expected.json's "hidden": not printed), but no row was left out of a
      // printed table: the split is not measured, not the zero-or-unmeasured hidden state.
      if (stage !== undefined)
        for (const state of Object.values(stage.splitState))
          assert.equal(state, 'notMeasured', `${rid} stage ${column}: no split without the table`);
    }
  }

  // [RequestE2EStats]
  checked += checkTable(`${rid} e2e`, want.e2e.table, got.e2e, null, null);
  if (!want.e2e.printed) assert.deepEqual(got.e2e, {}, `${rid}: no E2E table`);

  // [Overall Summary]
  if (want.overall_summary.printed) {
    assert.ok(got.overallSummary !== null, `${rid}: its [Overall Summary]`);
    checked += checkTable(`${rid} overall summary`, want.overall_summary.table, got.overallSummary.fields, null, null);
  } else {
    assert.equal(got.overallSummary, null, `${rid}: no [Overall Summary]`);
    checked += Object.keys(want.overall_summary.table).length;
  }

  // [TransferEdgeStats], edge by edge, and [OmniTiming]'s part of each edge.
  const timing = want.omnitiming;
  for (const [edge, table] of Object.entries(want.transfers.table)) {
    const transfer = got.transfers[edge];
    const timedMs = timing?.transfers_tx_ms[edge];
    if (!want.transfers.printed && timedMs === undefined) {
      assert.equal(transfer, undefined, `${rid} ${edge}: named nowhere, so not reported`);
      checked += Object.keys(table).length;
      continue;
    }
    assert.ok(transfer !== undefined, `${rid} ${edge}: reported`);
    assert.equal(transfer.tablePrinted, want.transfers.printed, `${rid} ${edge}: TransferEdgeStats column printed`);
    const [from, to] = edge.split('->').map(Number);
    assert.deepEqual([transfer.fromStage, transfer.toStage], [from, to], `${rid} ${edge}: stages`);
    checked += checkTable(`${rid} transfer ${edge}`, table, transfer.fields, null, null);
    if (timedMs === undefined) {
      assert.equal(transfer.omniTimingTxMs, null);
      assert.equal(transfer.omniTimingTxState, 'absent');
    } else {
      assert.equal(transfer.omniTimingTxMs, timedMs, `${rid} ${edge}: [OmniTiming] tx`);
      const tableTx = table['tx_time_ms'];
      const sent = timedMs > 0 || (typeof tableTx === 'number' && tableTx > 0);
      assert.equal(
        transfer.omniTimingTxState,
        sent ? 'measured' : 'notRecorded',
        `${rid} ${edge}: 0.00 without a measured send is no transfer recorded`,
      );
    }
    checked += 1;
  }

  if (timing === null) {
    assert.equal(got.omniTiming, null, `${rid}: no [OmniTiming]`);
  } else {
    assert.ok(got.omniTiming !== null, `${rid}: [OmniTiming]`);
    assert.equal(got.omniTiming.totalS, absentAsNull(timing.total_s), `${rid}: [OmniTiming] total`);
    assert.equal(got.omniTiming.engineS, absentAsNull(timing.engine_s), `${rid}: [OmniTiming] engine`);
    assert.equal(got.omniTiming.preprocessS, absentAsNull(timing.preprocess_s), `${rid}: [OmniTiming] preprocess`);
    assert.equal(
      got.omniTiming.ar2diffusionMs,
      absentAsNull(timing.ar2diffusion_ms),
      `${rid}: [OmniTiming] ar2diffusion`,
    );
    assert.deepEqual(got.omniTiming.stages, timing.stages_s, `${rid}: [OmniTiming] stages`);
    assert.deepEqual(got.omniTiming.transfers, timing.transfers_tx_ms, `${rid}: [OmniTiming] transfers`);
    checked += 4 + Object.keys(timing.stages_s).length + Object.keys(timing.transfers_tx_ms).length;
  }

  for (const check of want.checks ?? []) {
    assert.match(check.check, /^codec TTFT signature/, `${rid}: a check this test knows (${check.check})`);
    const state = got.stages[check.stage]?.splitState['ttftMs'];
    assert.equal(state === 'notRecorded', check.holds, `${rid} stage ${check.stage}: ${check.check}`);
    const finding = report.findings.find((f) => f.code === 'ttft-not-recorded' && f.stageId === Number(check.stage));
    assert.equal(finding?.requestIds.includes(rid) ?? false, check.holds, `${rid}: named by ttft-not-recorded`);
    checked += 2;
  }
  return checked;
}

const logs = fs
  .readdirSync(DIR)
  .filter((f) => f.endsWith('.log'))
  .sort();

test('every upstream-rendered log has its expected.json', () => {
  assert.ok(logs.length >= 4, `${logs.length} logs in ${DIR}`);
  for (const log of logs)
    assert.ok(fs.existsSync(path.join(DIR, log.replace(/\.log$/, '.expected.json'))), `${log}: its expected.json`);
});

for (const log of logs) {
  test(`${log}: analyze --format json reproduces every value of its expected.json`, () => {
    const expected = JSON.parse(
      fs.readFileSync(path.join(DIR, log.replace(/\.log$/, '.expected.json')), 'utf8'),
    ) as Expected;
    assert.deepEqual(
      Object.keys(expected.value_encoding).sort(),
      ['"', 'hidden', 'null', 'number', 'truth', '{mean,n}'].map((k) => (k === '"' ? '""' : k)).sort(),
      'the value encoding this test reads',
    );
    const run = spawnSync(process.execPath, [CLI, 'analyze', path.join(DIR, log), '--format', 'json'], {
      encoding: 'utf8',
      timeout: 60_000,
      maxBuffer: 64 << 20,
    });
    assert.equal(run.status, 0, run.stderr);
    const report = JSON.parse(run.stdout) as Report;
    assert.deepEqual(report.problems, [], 'read without problems');
    const ids = Object.keys(expected.requests);
    assert.equal(report.requests.length, ids.length, 'one report request per request');
    let checked = 0;
    for (const rid of ids) checked += checkRequest(rid, expected.requests[rid]!, report);
    assert.ok(checked > ids.length * 20, `${checked} values checked`);
  });
}

test("analyze's table shows the transfers per edge, and says what a 0.00 ms [OmniTiming] send is", () => {
  const table = (log: string): string => {
    const run = spawnSync(process.execPath, [CLI, 'analyze', path.join(DIR, log)], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(run.status, 0, run.stderr);
    return run.stdout;
  };
  const info = table('qwen3tts-info-level-omnitiming-only.log');
  assert.match(info, /^0 → 1 +6 +0 +p50 +- +- +- +- +not recorded$/m, 'no measured transfer value: no number, never 0');
  assert.match(
    info,
    /0 → 1: 6 of 6 \[OmniTiming\] sends print 0\.00 ms with no measured tx_time_ms: no payload transfer recorded/,
  );
  const omni = table('qwen3-omni-three-stage-transfers.log');
  // Send p50 of 78.701, 75.701, 72.701; size p50 of the three sizes (KB).
  assert.match(omni, /^0 → 1 +3 +3 +p50 +75\.70 +/m);
  assert.match(omni, /^1 → 2 +3 +3 +p50 +/m);
  assert.doesNotMatch(omni, /no payload transfer recorded/);
});
