// `analyze --format json` and `explain --format json` as a CI job runs them (the built dist/cli.js
// as a real child process, its stdout parsed as jq would): the JSON says which deploy config the
// report used (`deployConfig`: path, from flag / session / none, cited, problem) and where its
// stage roles came from (`stageRolesFrom`), and explain of a saved session folder names stages
// with the roles the session recorded unless --deploy-config is given, else from the session's
// own names (its deploy file, its source), never from the folder's path.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildBundles } from './support/buildBundles';
import { stoppedSession, writeSavedSession } from './support/savedSession';

const ROOT = path.resolve(__dirname, '..', '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
const LOG = path.join(ROOT, 'test', 'fixtures', 'upstream-rendered', 'qwen3tts-talker-first-audio-after-fix.log');
const DEPLOY = path.join(ROOT, 'test', 'fixtures', 'deploy');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-json-deploy-config-'));
// The log under a name that says no pipeline (it prints no served model either): roles come from elsewhere.
const PLAIN_LOG = path.join(tmp, 'server.log');
const TTS_ROLES = { '0': 'talker', '1': 'code2wav' };
const MISMATCH =
  "The deploy config qwen3_omni_moe.yaml has stages 0, 1 and 2, this log's requests have stages 0 and 1: it is not the config this server ran, so its settings are no evidence here.";

before(() => {
  buildBundles('cli');
  fs.copyFileSync(LOG, PLAIN_LOG);
});

after(() => fs.rmSync(tmp, { recursive: true, force: true }));

interface InputJson {
  readonly deployConfig: { path: string | null; from: string; cited: boolean; problem: string | null };
  readonly stageRoles: Record<string, string>;
  readonly stageRolesFrom: string;
  readonly findings: { code: string; stageId: number | null; message: string }[];
}

function json(args: string[]): { out: InputJson; stderr: string } {
  const run = spawnSync(process.execPath, [CLI, ...args, '--format', 'json'], {
    encoding: 'utf8',
    timeout: 60_000,
    cwd: ROOT,
  });
  assert.equal(run.status, 0, run.stderr);
  return { out: JSON.parse(run.stdout) as InputJson, stderr: run.stderr };
}

/** The fields a script reads: which deploy config, where the roles came from, the roles. */
const picked = ({ out }: { out: InputJson }) => ({
  deployConfig: out.deployConfig,
  stageRolesFrom: out.stageRolesFrom,
  stageRoles: out.stageRoles,
});

/**
 * A saved session folder of LOG's bytes: its recorded deploy config and, where given, its
 * recorded stage roles; in `parent` (a copy kept anywhere) and with `description` where given.
 */
function sessionFolder(
  id: string,
  deployConfig: string | null,
  stageRoles?: Record<string, string>,
  { parent = 'sessions', description = 'vllm-omni serve --port 8091 --log-stats' } = {},
): string {
  const dir = path.join(tmp, parent, id);
  const info = stoppedSession({
    id,
    kind: 'launch',
    description,
    requestCount: 6,
    deployConfig,
    ...(stageRoles === undefined ? {} : { stageRoles }),
  });
  writeSavedSession(dir, info, fs.readFileSync(LOG), 1);
  return dir;
}

for (const command of ['analyze', 'explain'] as const) {
  test(`${command} --format json names the deploy config it used, where it came from, and where the stage roles came from`, () => {
    assert.deepEqual(picked(json([command, PLAIN_LOG])), {
      deployConfig: { path: null, from: 'none', cited: false, problem: null },
      stageRolesFrom: 'none',
      stageRoles: {},
    });
    assert.deepEqual(picked(json([command, LOG])), {
      deployConfig: { path: null, from: 'none', cited: false, problem: null },
      stageRolesFrom: 'names',
      stageRoles: TTS_ROLES,
    });
    const config = path.join(DEPLOY, 'qwen3_tts.yaml');
    assert.deepEqual(picked(json([command, PLAIN_LOG, '--deploy-config', config])), {
      deployConfig: { path: config, from: 'flag', cited: true, problem: null },
      stageRolesFrom: 'names',
      stageRoles: TTS_ROLES,
    });
    // A config of other stages: named, not cited, and why (the sentence stderr says).
    const other = path.join(DEPLOY, 'qwen3_omni_moe.yaml');
    const mismatched = json([command, PLAIN_LOG, '--deploy-config', other]);
    assert.deepEqual(picked(mismatched), {
      deployConfig: { path: other, from: 'flag', cited: false, problem: MISMATCH },
      stageRolesFrom: 'none',
      stageRoles: {},
    });
    assert.equal(mismatched.stderr, `stage-lens ${command}: ${MISMATCH}\n`);
  });
}

test("explain --format json of a saved session folder: the session's deploy config, cited or why not", () => {
  const configDir = fs.mkdtempSync(path.join(tmp, 'deploy-'));
  const config = path.join(configDir, 'qwen3_tts.yaml');
  fs.copyFileSync(path.join(DEPLOY, 'qwen3_tts.yaml'), config);
  const dir = sessionFolder('s-config', config);
  assert.deepEqual(picked(json(['explain', dir])), {
    deployConfig: { path: config, from: 'session', cited: true, problem: null },
    stageRolesFrom: 'names',
    stageRoles: TTS_ROLES,
  });
  // --deploy-config wins over the session's.
  const given = path.join(DEPLOY, 'qwen3_tts_mrv2.yaml');
  assert.deepEqual(json(['explain', dir, '--deploy-config', given]).out.deployConfig, {
    path: given,
    from: 'flag',
    cited: true,
    problem: null,
  });
  fs.rmSync(config);
  const gone = json(['explain', dir]);
  assert.deepEqual(gone.out.deployConfig, {
    path: config,
    from: 'session',
    cited: false,
    problem: 'It no longer exists.',
  });
  assert.equal(
    gone.stderr,
    `stage-lens explain: deploy config: ${config} (the session's): it no longer exists, so the report goes on without it.\n`,
  );
  assert.deepEqual(json(['explain', sessionFolder('s-none', null)]).out.deployConfig, {
    path: null,
    from: 'none',
    cited: false,
    problem: null,
  });
});

test('explain of a saved session folder names stages with the roles the session recorded, unless --deploy-config is given, and says so', () => {
  // Nothing in the session's names says the pipeline; the roles it recorded (as the editor judged them) do.
  const dir = sessionFolder('s-roles', null, TTS_ROLES);
  const recorded = json(['explain', dir]);
  assert.deepEqual(picked(recorded), {
    deployConfig: { path: null, from: 'none', cited: false, problem: null },
    stageRolesFrom: 'session',
    stageRoles: TTS_ROLES,
  });
  assert.equal(
    recorded.stderr,
    "stage-lens explain: stage roles: the session's, as the editor judged them: 0 · talker, 1 · code2wav\n",
  );
  // The findings name the stages so too.
  const oneOutput = recorded.out.findings.find((f) => f.code === 'prefill-covers-decode');
  assert.match(oneOutput?.message ?? '', /^Stage 0 · talker emits one output/);

  const table = spawnSync(process.execPath, [CLI, 'explain', dir], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(table.status, 0, table.stderr);
  assert.equal(
    table.stdout.split('\n')[2],
    "stage roles: the session's, as the editor judged them: 0 · talker, 1 · code2wav",
  );
  assert.match(table.stdout, /stage 1 · code2wav/);

  // The session judged that no known pipeline fits its stages: its deploy file's name is not taken instead.
  const config = path.join(fs.mkdtempSync(path.join(tmp, 'deploy-')), 'qwen3_tts.yaml');
  fs.copyFileSync(path.join(DEPLOY, 'qwen3_tts.yaml'), config);
  const judgedNone = json(['explain', sessionFolder('s-roles-none', config, {})]);
  assert.deepEqual(picked(judgedNone), {
    deployConfig: { path: config, from: 'session', cited: true, problem: null },
    stageRolesFrom: 'session',
    stageRoles: {},
  });
  assert.equal(
    judgedNone.stderr,
    `stage-lens explain: deploy config: ${config} (the session's)\n` +
      "stage-lens explain: stage roles: the session's: none (no known pipeline fits its stages), so stages go by id\n",
  );

  // --deploy-config given: the roles come from the names, the config's among them, as for a file.
  const flagged = json(['explain', dir, '--deploy-config', path.join(DEPLOY, 'glm_image.yaml')]);
  assert.equal(flagged.out.stageRolesFrom, 'none');
  assert.deepEqual(flagged.out.stageRoles, {});
  assert.doesNotMatch(flagged.stderr, /stage roles/);
});

test("explain of a saved session folder takes its pipeline from the session's names, not from the folder's path", () => {
  // A copy kept in a folder named for another pipeline, recording no roles: its stages go by id,
  // as the editor shows that session (its deploy file and source name no pipeline).
  const unnamed = json(['explain', sessionFolder('import-unnamed', null, undefined, { parent: 'qwen3-tts-runs' })]);
  assert.deepEqual(picked(unnamed), {
    deployConfig: { path: null, from: 'none', cited: false, problem: null },
    stageRolesFrom: 'none',
    stageRoles: {},
  });
  // Its source names Qwen3-TTS: those roles, whatever the folder it was copied to says.
  const named = json([
    'explain',
    sessionFolder('import-named', null, undefined, {
      parent: 'qwen3-omni-runs',
      description: 'qwen3_tts-run-42.log',
    }),
  ]);
  assert.deepEqual(picked(named), {
    deployConfig: { path: null, from: 'none', cited: false, problem: null },
    stageRolesFrom: 'names',
    stageRoles: TTS_ROLES,
  });
  assert.match(named.out.findings.find((f) => f.code === 'prefill-covers-decode')?.message ?? '', /^Stage 0 · talker /);
});
