// Import Log... of the stats files log_utils.py of vLLM-Omni before February 2026 writes beside
// its log (`<log file>.overall.stats.jsonl`, `.orchestrator.stats.jsonl`) over a real connection
// to the language server: the session holds their requests with the stage times, end to end
// and edges they record, and its findings say what the file is rather than to turn on stats.
import { waitFor } from './support/waitFor';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { RequestDetail, SessionInfo, SummaryResult } from '../../server/protocol';
import { buildCli, DeployLspClient, ROOT } from './support/lspDeployHarness';
import { legacyStatsOnly, timingModel } from '../../webview/sidePanel/timingModel';

const LOGS = path.join(ROOT, 'test', 'fixtures', 'logs');
const FIRST = '0_5d0b5a4e-7c1f-4d8e-9a43-2f6c1b7e9d10';
const SECOND = '1_a81f3c22-0b6e-4f7a-8d5c-6e2a9f41c3b7';

let client: DeployLspClient;
let scratch: string;

before(async () => {
  buildCli();
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-import-jsonl-'));
  client = await DeployLspClient.start({ diagnosticsDelayMs: 0, storageDir: path.join(scratch, 'sessions') });
});

after(async () => {
  await client.stop();
  fs.rmSync(scratch, { recursive: true, force: true });
});

async function importFixture(name: string): Promise<SessionInfo> {
  const started = await client.request<SessionInfo>('stageLens/import', { path: path.join(LOGS, name) });
  return waitFor('the import to end', async () => {
    const info = (await client.request<SessionInfo[]>('stageLens/listSessions', {})).find((s) => s.id === started.id);
    return info?.status === 'exited' || info?.status === 'error' ? info : undefined;
  });
}

test('the overall file: each request with its stages and end to end; the finding names the files', async () => {
  const session = await importFixture('log-utils-overall.stats.jsonl');
  assert.equal(session.status, 'exited', session.lastError ?? '');
  assert.equal(session.requestCount, 2);
  assert.equal(session.problemCount, 0);
  const summary = await client.request<SummaryResult>('stageLens/summary', { sessionId: session.id });
  assert.deepEqual(
    summary.stages.map((s) => [s.stageKey, s.fields['stage_gen_time_ms']?.count, s.fields['stage_gen_time_ms']?.max]),
    [
      ['0', 2, 530],
      ['1', 2, 1490.5],
    ],
  );
  assert.equal(summary.endToEnd?.ms.max, 2405);
  const finding = summary.findings.find((f) => f.code === 'legacy-stats-format');
  assert.match(finding?.message ?? '', /JSON records of the stats files log_utils\.py/);
  assert.equal(
    summary.findings.some((f) => f.message.includes('No per-request stage statistics found')),
    false,
  );
  const detail = await client.request<RequestDetail | null>('stageLens/request', {
    sessionId: session.id,
    requestId: FIRST,
  });
  const stage1 = detail?.request.stages.find((s) => s.stageKey === '1');
  assert.deepEqual(stage1?.fields['stage_gen_time_ms'], { state: 'measured', value: 1103.75 });
  assert.equal(stage1?.split.states.decodeMs, 'notMeasured');
  assert.deepEqual(detail?.request.e2e['e2e_time_ms'], { state: 'measured', value: 1712.5 });
});

test('the orchestrator file: end to end and each edge of each request', async () => {
  const session = await importFixture('log-utils-orchestrator.stats.jsonl');
  assert.equal(session.status, 'exited', session.lastError ?? '');
  assert.equal(session.requestCount, 2);
  const detail = await client.request<RequestDetail | null>('stageLens/request', {
    sessionId: session.id,
    requestId: SECOND,
  });
  const edge = detail?.request.transfers.find((t) => t.edge === '0->1');
  assert.deepEqual(edge?.fields['total_time_ms'], { state: 'measured', value: 15 });
  assert.deepEqual(edge?.fields['tx_time_ms'], { state: 'measured', value: 8.5 });
  assert.deepEqual(detail?.request.e2e['e2e_time_ms'], { state: 'measured', value: 2405 });
});

test('the orchestrator file: the summary the side panel gets has the end to end and the edge it draws', async () => {
  const session = await importFixture('log-utils-orchestrator.stats.jsonl');
  const summary = await client.request<SummaryResult>('stageLens/summary', { sessionId: session.id });
  assert.deepEqual(summary.stages, []);
  // `analyze` of the file prints `end to end  2  2,059  2,336  2,398  2,405`.
  assert.deepEqual(
    [summary.endToEnd?.ms.count, summary.endToEnd?.ms.p50, summary.endToEnd?.ms.p90, summary.endToEnd?.ms.max],
    [2, 2058.75, 2335.75, 2405],
  );
  const edge = summary.edges?.find((e) => e.edge === '0->1');
  assert.equal(edge?.requestCount, 2);
  assert.equal(edge?.fields['total_time_ms']?.p50, 13.25);
  // What the side panel draws from it: the end-to-end row, not an empty phase table.
  assert.equal(legacyStatsOnly(summary), true);
  assert.deepEqual(
    timingModel(summary, 'p50', {}, true).rows.map((r) => [r.label, r.cells['time']?.text]),
    [
      ['end to end', '2,059'],
      ['time per token', '3.42'],
    ],
  );
});

test('both files in one imported file: each request once, joined', async () => {
  const both = path.join(scratch, 'run.stats.jsonl');
  fs.writeFileSync(
    both,
    fs.readFileSync(path.join(LOGS, 'log-utils-orchestrator.stats.jsonl'), 'utf8') +
      fs.readFileSync(path.join(LOGS, 'log-utils-overall.stats.jsonl'), 'utf8'),
  );
  const started = await client.request<SessionInfo>('stageLens/import', { path: both });
  const session = await waitFor('the import to end', async () => {
    const info = (await client.request<SessionInfo[]>('stageLens/listSessions', {})).find((s) => s.id === started.id);
    return info?.status === 'exited' || info?.status === 'error' ? info : undefined;
  });
  assert.equal(session.status, 'exited', session.lastError ?? '');
  assert.equal(session.requestCount, 2);
  const summary = await client.request<SummaryResult>('stageLens/summary', { sessionId: session.id });
  assert.equal(
    summary.findings.some((f) => f.code === 'repeated-request-ids'),
    false,
  );
  assert.deepEqual([summary.endToEnd?.ms.count, summary.endToEnd?.ms.max], [2, 2405]);
  const detail = await client.request<RequestDetail | null>('stageLens/request', {
    sessionId: session.id,
    requestId: FIRST,
  });
  assert.deepEqual(detail?.request.stages.find((s) => s.stageKey === '0')?.fields['stage_gen_time_ms'], {
    state: 'measured',
    value: 412.25,
  });
  assert.deepEqual(detail?.request.transfers.find((t) => t.edge === '0->1')?.fields['total_time_ms'], {
    state: 'measured',
    value: 11.5,
  });
  assert.deepEqual(detail?.request.e2e['e2e_time_ms'], { state: 'measured', value: 1712.5 });
  const repeat = await client.request<RequestDetail | null>('stageLens/request', {
    sessionId: session.id,
    requestId: `${FIRST}#2`,
  });
  assert.equal(repeat, null);
});
