// Compare Sessions in the editor and `stage-lens compare` of the same two saved session folders
// name the runs' stages alike, in the report's roles and in its findings' words: two Qwen3-TTS
// logs whose server printed its own names for its stages (`0:speaker`, `1:vocoder` in their
// [OmniTiming] lines, a deploy config's model_stage) while the model it serves names the pipeline
// whose roles are talker and code2wav. The printed names win, as in `analyze`, in the session and
// in the roles it recorded. Real parts: the language server over stdio, the built CLI as a child
// process on the sessions' folders and on the logs themselves.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { runCli } from './support/cliProcess';
import { cliCompare, withSources } from './support/compareReport';
import { startLanguageServer, storageForFile } from './support/lspProcess';

const storage = storageForFile('stage-lens-compare-recorded-roles-');
const UPSTREAM = path.resolve(__dirname, '..', 'fixtures', 'upstream-rendered');
const SERVED =
  "(APIServer pid=4242) INFO 10-19 07:12:03 [entrypoints/utils.py:326] non-default args: {'model_tag': 'Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice', 'host': '127.0.0.1', 'port': 8000, 'model': 'Qwen/Qwen3-TTS-12Hz-1.7B-CustomVoice', 'omni': True, 'log_stats': True}\n";
const PRINTED = { '0': 'speaker', '1': 'vocoder' };

/** The upstream-rendered log `fixture` with the served model's line, its stages named speaker and vocoder by the server. */
function namedLog(fixture: string, name: string): string {
  const text = fs
    .readFileSync(path.join(UPSTREAM, fixture), 'utf8')
    .replace(/stages=\[0:([0-9.]+s),1:/g, 'stages=[0:speaker=$1,1:vocoder=');
  const file = path.join(storage, name);
  fs.writeFileSync(file, SERVED + text);
  return file;
}

interface FindingWords {
  readonly code: string;
  readonly message: string;
}

const words = (findings: readonly FindingWords[]): string[] => findings.map((f) => `${f.code}: ${f.message}`);

test('live Compare Sessions and compare of the saved folders: the same roles and findings, the names the server printed', async () => {
  const before = namedLog('qwen3tts-talker-first-audio-before-fix.log', 'run-before.log');
  const after = namedLog('qwen3tts-talker-first-audio-after-fix.log', 'run-after.log');
  // The case at hand: analyze names the stages by the printed names, not the served model's roles.
  const analyzed = runCli(['analyze', before, '--format', 'json']);
  assert.equal(analyzed.status, 0, analyzed.stderr);
  const analyzeJson = JSON.parse(analyzed.stdout) as { stageRoles: unknown; findings: FindingWords[] };
  assert.deepEqual(analyzeJson.stageRoles, PRINTED);
  assert.ok(words(analyzeJson.findings).some((w) => w.startsWith('ttft-not-recorded: Stage 1 · vocoder produced')));

  const lsp = await startLanguageServer(storage);
  const baseline = await lsp.importLog(before);
  const candidate = await lsp.importLog(after);
  assert.deepEqual(baseline.stageRoles, PRINTED);
  assert.deepEqual(candidate.stageRoles, PRINTED);
  const { report } = await lsp.request('stageLens/compare', {
    baseline: { sessionId: baseline.id },
    candidate: { sessionId: candidate.id },
  });
  assert.deepEqual(report.stageRoles, PRINTED);
  assert.ok(
    words(report.findings).some((w) => w.startsWith('ttft-not-recorded: Stage 1 · vocoder produced')),
    words(report.findings).join('\n'),
  );

  const baselineFolder = path.join(storage, 'sessions', baseline.id);
  const candidateFolder = path.join(storage, 'sessions', candidate.id);
  const cli = cliCompare(baselineFolder, candidateFolder).json;
  assert.deepEqual(words(cli.findings), words(report.findings));
  assert.deepEqual(
    [cli.stageRoles, cli.runStageRoles, cli.stageRolesFrom, cli.runStageRolesFrom],
    [report.stageRoles, report.runStageRoles, report.stageRolesFrom, report.runStageRolesFrom],
  );
  // The whole report, each run's source aside.
  assert.deepEqual(
    withSources(cli, baselineFolder, candidateFolder),
    withSources(report, report.baseline.source, report.candidate.source),
  );

  // The logs themselves, compared by the CLI: the same roles and findings, as analyze names them.
  const files = cliCompare(before, after).json;
  assert.deepEqual(files.stageRoles, PRINTED);
  assert.deepEqual(files.runStageRolesFrom, { baseline: 'labels', candidate: 'labels' });
  assert.deepEqual(words(files.findings), words(report.findings));
});
