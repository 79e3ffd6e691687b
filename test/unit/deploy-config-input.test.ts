// A deploy config (YAML) given as a log — picked by mistake in Import Log..., or passed to
// analyze — is said to be one (finding input-deploy-config), not "no stats tables: run at
// DEBUG"; no server log, and no YAML that is not a deploy config, is taken for one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { LogStreamParser } from '../../server/core/log';
import { StreamAnalysis, type AnalysisSnapshot } from '../../server/core/analysis/streamAnalysis';
import { noStageStatsText } from '../../server/core/analysis/noStageStats';
import { tableReport } from '../../server/core/report/tableReport';

const FIXTURES = path.join(__dirname, '..', 'fixtures');

function analyse(input: Buffer): AnalysisSnapshot {
  const analysis = new StreamAnalysis();
  const parser = new LogStreamParser();
  analysis.ingest(parser.push(input));
  analysis.ingest(parser.end());
  analysis.flush();
  return analysis.snapshot();
}

const codes = (s: AnalysisSnapshot): string[] => s.findings.map((f) => f.code);

test('every deploy config fixture read as a log is said to be a deploy config, not a log without stats tables', () => {
  const files = readdirSync(path.join(FIXTURES, 'deploy')).filter((f) => f.endsWith('.yaml'));
  assert.ok(files.length >= 8);
  for (const file of files) {
    const snapshot = analyse(readFileSync(path.join(FIXTURES, 'deploy', file)));
    assert.equal(snapshot.requestCount, 0, file);
    assert.deepEqual(codes(snapshot), ['input-deploy-config'], file);
    assert.equal(
      noStageStatsText(snapshot.findings),
      'No per-request stage statistics: the input is a deploy config (YAML), not a server log (see Findings).',
    );
    const table = tableReport(snapshot, { source: file }).join('\n');
    assert.match(table, /the input is a deploy config \(YAML\), not a server log/, file);
    assert.doesNotMatch(table, /its stats tables need VLLM_LOGGING_LEVEL=DEBUG/, file);
  }
});

test('no server log, and no YAML that is not a deploy config, is taken for one', () => {
  for (const dir of ['logs', 'real-logs', 'upstream-rendered']) {
    for (const file of readdirSync(path.join(FIXTURES, dir)).filter((f) => f.endsWith('.log'))) {
      const snapshot = analyse(readFileSync(path.join(FIXTURES, dir, file)));
      assert.ok(!codes(snapshot).includes('input-deploy-config'), `${dir}/${file}`);
    }
  }
  const notConfigs = [
    'name: demo\nitems:\n  - a\n',
    // A log line that starts like a YAML key, with the words of a config further down.
    'INFO:     Started server process [4242]\nstages:\n  - stage_id: 0\n',
    // The words in comments and values only.
    '# stages:\n#   - stage_id: 0\nmodel: qwen\nnote: "stages: - stage_id: 1"\n',
  ];
  for (const text of notConfigs) {
    const snapshot = analyse(Buffer.from(text));
    assert.ok(!codes(snapshot).includes('input-deploy-config'), JSON.stringify(text));
    assert.equal(
      noStageStatsText(snapshot.findings),
      'No per-request stage statistics found. vLLM-Omni prints them with --log-stats; its stats tables need VLLM_LOGGING_LEVEL=DEBUG.',
    );
  }
});
