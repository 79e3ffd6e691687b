// `stage-lens compare` names stages by the roles of the pipeline the files' names say only where
// each run's stages printed nothing that contradicts them (server/core/analysis/roleFit.ts, the
// check analyze makes): a Qwen3-TTS log named glm_image-*.log gets no AR / diffusion stages. The
// built dist/cli.js as a child process, on upstream-rendered Qwen3-TTS logs and a GLM-Image log
// written by the simulator, copied under the names a user might give them; saved session folders
// named, as the editor names them, by their deploy file and source, not by the folder's path.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cliStdout as cli, runCli as run } from './support/cliProcess';
import { tempFolder } from './support/tempFolder';
import { SessionFiles } from '../../server/capture/sessionFiles';
import { stoppedSession, writeSavedSession } from './support/savedSession';

const ROOT = path.resolve(__dirname, '..', '..');
const UPSTREAM = path.join(ROOT, 'test', 'fixtures', 'upstream-rendered');
const dir = tempFolder('stage-lens-compare-roles-');
const log = (name: string): string => path.join(dir, name);

function copyAs(fixture: string, name: string): void {
  fs.copyFileSync(path.join(UPSTREAM, fixture), log(name));
}

/** The log of 12 requests of the simulator's `scenario`, on its fixed clock, with the stages' tables. */
const simulated = (scenario: string): string =>
  cli([
    'simulate',
    '--scenario',
    scenario,
    ...'--requests 12 --seed 1 --rps 5 --speed 1000 --fixed-clock --debug-tables --port 0'.split(' '),
  ]);

before(() => {
  // Qwen3-TTS (stage 1 prints audio_duration_s) under a GLM-Image name, and under its own.
  copyAs('qwen3tts-talker-first-audio-after-fix.log', 'glm_image-after.log');
  copyAs('qwen3tts-talker-first-audio-before-fix.log', 'glm_image-before.log');
  copyAs('qwen3tts-talker-first-audio-before-fix.log', 'qwen3_tts-before.log');
  copyAs('qwen3-omni-three-stage-transfers.log', 'qwen3_omni-run.log');
  // A GLM-Image run (stage 1 prints diffusion fields), under its own name and a Qwen3-TTS one.
  const glm = simulated('glm-image');
  fs.writeFileSync(log('glm_image-run.log'), glm);
  fs.writeFileSync(log('qwen3_tts-glm.log'), glm);
  // Under names that say no pipeline: the logs' own start-up lines (the served model) and their
  // stages' kinds say it. A GLM-Image run without its start-up lines says it by its kinds only.
  fs.writeFileSync(log('candidate.log'), glm);
  const noStartup = glm
    .split('\n')
    .filter((l) => !l.includes('non-default args') && !l.includes('Loaded deploy config'))
    .join('\n');
  fs.writeFileSync(log('candidate-no-startup.log'), noStartup);
  copyAs('qwen3tts-talker-first-audio-before-fix.log', 'baseline-no-startup.log');
  const tts = simulated('qwen3-tts');
  fs.writeFileSync(log('baseline.log'), tts);
});

const rolesOf = (baseline: string, candidate: string): unknown =>
  (JSON.parse(cli(['compare', log(baseline), log(candidate), '--format', 'json'])) as { stageRoles: unknown })
    .stageRoles;

test('two Qwen3-TTS logs named glm_image-*.log: stages by id in compare, as in analyze', () => {
  assert.deepEqual(rolesOf('glm_image-after.log', 'glm_image-before.log'), {});
  const table = cli(['compare', log('glm_image-after.log'), log('glm_image-before.log')]);
  assert.match(table, /\n1 +queued +6\/6 +p50 /);
  assert.doesNotMatch(table, /· (AR|diffusion)/);
  // analyze of either file says the same.
  assert.doesNotMatch(cli(['analyze', log('glm_image-after.log')]), /· (AR|diffusion)/);
});

test("a misnamed run drops its name's roles; the other run's, which fit both, name the stages", () => {
  // The TTS roles of the candidate's name fit the baseline's stages too.
  assert.deepEqual(rolesOf('glm_image-after.log', 'qwen3_tts-before.log'), { '0': 'talker', '1': 'code2wav' });
  assert.match(
    cli(['compare', log('glm_image-after.log'), log('qwen3_tts-before.log')]),
    /\n1 · code2wav +queued +6\/6 /,
  );
  // A GLM-Image log named qwen3_tts: its diffusion fields overrule the name; the other's name fits.
  assert.deepEqual(rolesOf('qwen3_tts-glm.log', 'glm_image-run.log'), { '0': 'AR', '1': 'diffusion' });
});

test('runs named for their own pipeline keep its roles', () => {
  assert.deepEqual(rolesOf('glm_image-run.log', 'glm_image-run.log'), { '0': 'AR', '1': 'diffusion' });
  assert.deepEqual(rolesOf('qwen3_tts-before.log', 'qwen3_tts-before.log'), { '0': 'talker', '1': 'code2wav' });
});

const count = (text: string, what: string): number => text.split(what).length - 1;

/** compare of two of the logs with one `--fail-if` rule, which must refuse it as a usage error (exit 2): its stderr. */
function refusedRule(baseline: string, candidate: string, rule: string): string {
  const r = run(['compare', log(baseline), log(candidate), '--fail-if', rule]);
  assert.equal(r.status, 2, r.stderr);
  return r.stderr;
}

test('two pipelines: the different stages said once in the report and on stderr; a stage rule is a usage error naming both roles', () => {
  const pair = [log('qwen3_tts-before.log'), log('qwen3_omni-run.log')];
  const warning =
    'stage-lens compare: warning: The runs have different stages (baseline 0, 1; candidate 0, 1, 2): not the same pipeline or deploy config';
  for (const format of ['table', 'markdown']) {
    const r = run(['compare', ...pair, '--format', format, '--fail-if', 'request.e2e.p99 > 100s']);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(count(r.stdout, 'The runs have different stages'), 1, format);
    assert.equal(count(r.stderr, warning), 1, r.stderr);
  }
  const refused = run([
    'compare',
    ...pair,
    '--format',
    'markdown',
    '--fail-if',
    'stage1.ttft.p90 > +10%; request.e2e.p99 > 100s; stage2.genTime.p50 > 1s',
  ]);
  assert.equal(refused.status, 2, refused.stderr);
  assert.equal(refused.stdout, '');
  assert.equal(
    refused.stderr,
    [
      `${warning}, so a stage of one is not the same stage of the other. Rows are matched by stage id only.`,
      "stage-lens compare: --fail-if 'stage1.ttft.p90 > +10%': the runs have different stages (baseline 0, 1; candidate 0, 1, 2): stage 1 is code2wav in the baseline and talker in the candidate; a rule on it would hold one against the other. Gate request.e2e, or compare two runs of one pipeline",
      "stage-lens compare: --fail-if 'stage2.genTime.p50 > 1s': the runs have different stages (baseline 0, 1; candidate 0, 1, 2): stage 2 did not run in the baseline and is code2wav in the candidate; a rule on it would hold one against the other. Gate request.e2e, or compare two runs of one pipeline",
      '',
    ].join('\n'),
  );
});

test('two pipelines on the same stage ids (GLM-Image against Qwen3-TTS): a stage rule is a usage error', () => {
  assert.equal(
    refusedRule('glm_image-run.log', 'qwen3_tts-before.log', 'stage1.genTime.p90 > +10%'),
    'stage-lens compare: warning: The runs are two pipelines: stage 0 is AR in the baseline and talker in the candidate; stage 1 is diffusion in the baseline and code2wav in the candidate. A stage of one is not the same stage of the other: rows are matched by stage id only.\n' +
      "stage-lens compare: --fail-if 'stage1.genTime.p90 > +10%': the runs are two pipelines: stage 1 is diffusion in the baseline and code2wav in the candidate; a rule on it would hold one against the other. Gate request.e2e, or compare two runs of one pipeline\n",
  );
});

test('two pipelines under names that say none: the model each log serves names the roles, and a stage rule is a usage error', () => {
  assert.equal(
    refusedRule('baseline.log', 'candidate.log', 'stage1.genTime.p50 > +10%'),
    'stage-lens compare: warning: The runs are two pipelines: stage 0 is talker in the baseline and AR in the candidate; stage 1 is code2wav in the baseline and diffusion in the candidate. A stage of one is not the same stage of the other: rows are matched by stage id only.\n' +
      "stage-lens compare: --fail-if 'stage1.genTime.p50 > +10%': the runs are two pipelines: stage 1 is code2wav in the baseline and diffusion in the candidate; a rule on it would hold one against the other. Gate request.e2e, or compare two runs of one pipeline\n",
  );
  // analyze and explain name the stages by the served model too.
  assert.match(cli(['analyze', log('candidate.log')]), /\n1 · diffusion /);
  assert.match(cli(['explain', log('baseline.log')]), /stage 1 · code2wav/);
});

test('two pipelines with no start-up lines nor telling names: a stage of another kind in each run is a usage error', () => {
  assert.equal(
    refusedRule('baseline-no-startup.log', 'candidate-no-startup.log', 'stage1.genTime.p50 > +10%'),
    'stage-lens compare: warning: The runs are two pipelines: stage 1 is an LLM stage in the baseline and a diffusion stage in the candidate. A stage of one is not the same stage of the other: rows are matched by stage id only.\n' +
      "stage-lens compare: --fail-if 'stage1.genTime.p50 > +10%': the runs are two pipelines: stage 1 is an LLM stage in the baseline and a diffusion stage in the candidate; a rule on it would hold one against the other. Gate request.e2e, or compare two runs of one pipeline\n",
  );
  // Without a rule the report says so first, as for runs of different stages.
  assert.match(
    run(['compare', log('baseline-no-startup.log'), log('candidate-no-startup.log')]).stdout,
    /^Warning: The runs are two pipelines: stage 1 is an LLM stage in the baseline and a diffusion stage in the candidate\./m,
  );
  // A request-scope rule still compares.
  assert.notEqual(
    run([
      'compare',
      log('baseline-no-startup.log'),
      log('candidate-no-startup.log'),
      '--fail-if',
      'request.e2e.p50 > +1000000%',
    ]).status,
    2,
  );
});

/** A saved session folder of `fixture`'s bytes, imported from `description`, kept in `parent`. */
function sessionCopy(parent: string, id: string, fixture: string, description: string): string {
  const folder = path.join(dir, parent, id);
  const files = SessionFiles.atFolder(folder);
  const startedAt = Date.UTC(2026, 9, 22, 9, 0, 0);
  files.writeMeta({
    info: {
      id,
      kind: 'import',
      description,
      title: '',
      startedAt,
      status: 'stopped',
      requestCount: 6,
      deployConfig: null,
      lastError: null,
      exit: null,
      problemCount: 0,
    },
  });
  files.append({ stream: 'file', bytes: fs.readFileSync(path.join(UPSTREAM, fixture)), capturedAt: startedAt + 1000 });
  files.close();
  return folder;
}

test("saved session folders: stages named from each session's source, not from the folder they were copied to", () => {
  // Qwen3-TTS imports kept in a folder named for GLM-Image: their source names their pipeline.
  const before = sessionCopy(
    'glm_image-runs',
    'import-a',
    'qwen3tts-talker-first-audio-before-fix.log',
    'qwen3_tts-before.log',
  );
  const after = sessionCopy(
    'glm_image-runs',
    'import-b',
    'qwen3tts-talker-first-audio-after-fix.log',
    'qwen3_tts-after.log',
  );
  const report = JSON.parse(cli(['compare', before, after, '--format', 'json'])) as { stageRoles: unknown };
  assert.deepEqual(report.stageRoles, { '0': 'talker', '1': 'code2wav' });
  assert.match(cli(['compare', before, after]), /\n1 · code2wav +queued +6\/6 /);
});

test("saved session folders whose names say no pipeline: the roles each session recorded name its stages, said as the session's", () => {
  // Qwen3-TTS imports from files named for nothing (no start-up lines name a served model either),
  // whose session.json records the roles the editor judged.
  const bytes = (fixture: string): Buffer => fs.readFileSync(path.join(UPSTREAM, fixture));
  const recorded = { '0': 'talker', '1': 'code2wav' };
  const saved = (id: string, fixture: string, description: string): string => {
    const folder = path.join(dir, 'runs', id);
    writeSavedSession(
      folder,
      stoppedSession({ id, kind: 'import', description, requestCount: 6, stageRoles: recorded }),
      bytes(fixture),
    );
    return folder;
  };
  const before = saved('import-c', 'qwen3tts-talker-first-audio-before-fix.log', 'before.log');
  const after = saved('import-d', 'qwen3tts-talker-first-audio-after-fix.log', 'after.log');
  const report = JSON.parse(cli(['compare', before, after, '--format', 'json'])) as {
    stageRoles: unknown;
    stageRolesFrom: unknown;
    runStageRolesFrom: unknown;
  };
  assert.deepEqual(report.stageRoles, recorded);
  assert.equal(report.stageRolesFrom, 'session');
  assert.deepEqual(report.runStageRolesFrom, { baseline: 'session', candidate: 'session' });
  const table = cli(['compare', before, after]);
  assert.match(table, /\n1 · code2wav +queued +6\/6 /);
  assert.match(table, /\n0 · talker +/);
  // The table's header says where the roles came from, in explain's words.
  const said = "stage roles: the baseline session's, as the editor judged them: 0 · talker, 1 · code2wav";
  assert.equal(table.split('\n')[4], said);
  assert.match(
    cli(['explain', before]),
    /\nstage roles: the session's, as the editor judged them: 0 · talker, 1 · code2wav\n/,
  );
  assert.match(cli(['compare', before, after, '--format', 'markdown']), new RegExp(`\n${said}\n`));
  // The same logs as files under those names: stages by id, from nowhere.
  const file = log('before.log');
  fs.writeFileSync(file, bytes('qwen3tts-talker-first-audio-before-fix.log'));
  // A session against a log: the roles are the session's, whichever side it is on.
  assert.match(
    cli(['compare', file, after]),
    /\nstage roles: the candidate session's, as the editor judged them: 0 · talker, 1 · code2wav\n/,
  );
  assert.match(cli(['compare', before, file]), new RegExp(`\n${said}\n`));
  assert.doesNotMatch(cli(['compare', file, file]), /stage roles:/);
  const plain = JSON.parse(cli(['compare', file, file, '--format', 'json'])) as {
    stageRoles: unknown;
    stageRolesFrom: unknown;
  };
  assert.deepEqual(plain.stageRoles, {});
  assert.equal(plain.stageRolesFrom, 'none');
});
