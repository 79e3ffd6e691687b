// Compare Sessions inside a real VS Code: a session imported from a simulator log of a
// build before the codec stats fix against a log of a fixed build, through the language
// server's `stageLens/compare` request and the command that shows it in the panel; the
// panel reports back what it drew, which must be the request's numbers.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { StageLensApi } from '../../../src/extension';
import type { ShownComparison } from '../../../src/views/comparePanel';
import { formatCompact } from '../../../webview/shared/format';
import { stageLensExtension, waitFor } from './helpers';

function simulateLog(extensionPath: string, file: string, statsBuild: string): void {
  const r = spawnSync(
    process.execPath,
    [
      path.join(extensionPath, 'dist', 'cli.js'),
      'simulate',
      '--scenario',
      'qwen3-tts',
      '--talker-first-audio',
      '--stats-build',
      statsBuild,
      '--requests',
      '60',
      '--seed',
      '1',
      '--rps',
      '5',
      '--speed',
      '1000',
      '--fixed-clock',
      '--debug-tables',
      '--port',
      '0',
    ],
    {
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  if (r.status !== 0) throw new Error(`simulate exited ${r.status}: ${r.stderr}`);
  fs.writeFileSync(file, r.stdout);
}

describe('Compare Sessions', () => {
  let dir = '';
  after(() => {
    if (dir !== '') fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a session before the codec fix vs a fixed build: ttft-not-recorded disappears, the panel shows the request’s numbers', async function () {
    this.timeout(90_000);
    const ext = stageLensExtension();
    const { client } = (await ext.activate()) as StageLensApi;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-compare-'));
    const before = path.join(dir, 'before-fix.log');
    const fixed = path.join(dir, 'fixed.log');
    simulateLog(ext.extensionPath, before, 'before-fix');
    simulateLog(ext.extensionPath, fixed, 'fixed');

    const imported = await client.request('stageLens/import', { path: before });
    const session = await waitFor(
      'the imported session with its 60 requests',
      async () => {
        const s = (await client.refreshSessions()).find((x) => x.id === imported.id);
        return s !== undefined && s.requestCount >= 60 ? s : undefined;
      },
      30_000,
    );

    // The request the command runs.
    const params = { baseline: { sessionId: session.id }, candidate: { path: fixed } };
    const direct = await client.request('stageLens/compare', params);
    const report = direct.report;
    assert.equal(report.baseline.requestCount, 60);
    assert.equal(report.candidate.requestCount, 60);
    // Named by file, the import said of the imported session only, without its import time.
    assert.deepEqual(direct.baselineRun, { name: 'before-fix.log', imported: true, detail: before });
    assert.deepEqual(direct.candidateRun, { name: 'fixed.log', imported: false, detail: fixed });
    const gone = report.findings.find((f) => f.code === 'ttft-not-recorded');
    assert.equal(gone?.change, 'disappeared');
    assert.equal(gone?.stageId, 1);
    assert.equal(gone?.baselineRequests, 60);
    const ttft = report.metrics.find((m) => m.scope === '1' && m.metric === 'ttft');
    assert.equal(ttft?.status, 'candidateOnly');
    assert.equal(ttft?.baseline.unknown.notRecorded, 60);
    const queued = report.metrics.find((m) => m.scope === '1' && m.metric === 'queued');
    assert.equal(queued?.status, 'compared');
    const p50 = queued?.quantiles.find((q) => q.quantile === 'p50');
    assert.ok(p50 !== undefined && p50.baseline > 0 && p50.ci !== null);

    // The command: the panel opens, draws, and reports what it drew.
    const shown = await vscode.commands.executeCommand<ShownComparison | undefined>(
      'stageLens.compareSessions',
      params,
    );
    assert.ok(shown !== undefined);
    assert.deepEqual(shown.result.report, report);
    const rendered = shown.rendered;
    assert.ok(
      rendered !== null,
      `the panel reported what it drew${shown.drawError === undefined ? '' : `: ${shown.drawError}`}`,
    );
    assert.ok(rendered.findings.includes('disappeared:ttft-not-recorded:1'), rendered.findings.join(', '));
    assert.equal(rendered.rows, report.metrics.filter((m) => m.status !== 'neither').length);
    assert.match(
      rendered.texts['1.ttft'] ?? '',
      /measured in the candidate only; baseline: 0 of 60 measured \(60 not recorded\)/,
    );
    assert.ok(
      (rendered.texts['1.queued'] ?? '').includes(`${formatCompact(p50.baseline)} → ${formatCompact(p50.candidate)}`),
      rendered.texts['1.queued'],
    );
    // The talker emits one output: its vllm_prefill_ms is compared as prefill+decode, never as prefill.
    assert.match(
      rendered.texts['0.prefillDecode'] ?? '',
      /^prefill\+decode \(one output\) ?60 \/ 60 ?[\d,.]+ → [\d,.]+/,
      rendered.texts['0.prefillDecode'],
    );
    assert.equal(rendered.texts['0.prefill'], undefined);
    // Only flagged changes are counted: beyond noise, above the practical threshold, enough values.
    const flagged = report.metrics.reduce((n, m) => n + m.quantiles.filter((q) => q.verdict === 'changed').length, 0);
    assert.equal(rendered.beyondNoise, flagged);
    assert.ok(
      vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => t.label === 'Stage Lens: Compare')),
      'the Compare panel is open',
    );

    // A file that cannot be compared comes back as an error, not as an empty panel.
    await assert.rejects(
      client.request('stageLens/compare', {
        baseline: { path: path.join(dir, 'missing.log') },
        candidate: { path: fixed },
      }),
      /cannot read .*missing\.log/,
    );
    await waitFor(
      'the panel still open',
      () => vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => t.label === 'Stage Lens: Compare')),
      5_000,
    );
  });
});
