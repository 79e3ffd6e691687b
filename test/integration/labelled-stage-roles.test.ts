// Stage names the server printed in its stage columns (`0:thinker`, the vllm-omni#3069 branch:
// the `model_stage` of the config it loaded) name the stages alike in `analyze`, `explain` and an
// editor session, whatever deploy config is given with the log: a file's name is a guess, the
// printed names are the server's own. Real parts: the built CLI as child processes, the language
// server over stdio.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli } from './support/cliProcess';
import { killLanguageServers, startLanguageServer } from './support/lspProcess';
import { waitFor } from './support/waitFor';

const ROOT = path.resolve(__dirname, '..', '..');
const LOG = path.join(ROOT, 'test', 'fixtures', 'logs', 'pr3069-labelled-columns-timing-breakdown.log');
// A two-stage pipeline's name: its roles would fit none of the log's three stages.
const DEPLOY = path.join(ROOT, 'test', 'fixtures', 'deploy', 'qwen3_tts.yaml');
const PRINTED = { '0': 'thinker', '1': 'talker', '2': 'code2wav' };

const storage = fs.mkdtempSync(path.join(os.tmpdir(), 'stage-lens-labelled-roles-'));
after(() => {
  killLanguageServers();
  fs.rmSync(storage, { recursive: true, force: true });
});

interface RolesJson {
  readonly stageRoles: Record<string, string>;
  readonly stageRolesFrom: string;
}

function rolesOf(command: 'analyze' | 'explain', args: readonly string[]): RolesJson {
  const r = runCli([command, LOG, ...args, '--format', 'json']);
  assert.equal(r.status, 0, r.stderr);
  const { stageRoles, stageRolesFrom } = JSON.parse(r.stdout) as RolesJson;
  return { stageRoles, stageRolesFrom };
}

test('printed stage names name the stages in analyze and explain, with or without a deploy config', () => {
  for (const args of [[], ['--deploy-config', DEPLOY]]) {
    for (const command of ['analyze', 'explain'] as const) {
      assert.deepEqual(
        rolesOf(command, args),
        { stageRoles: PRINTED, stageRolesFrom: 'labels' },
        `${command} ${args.join(' ')}`,
      );
    }
  }
  // The table names them too.
  const table = runCli(['analyze', LOG, '--deploy-config', DEPLOY]);
  assert.equal(table.status, 0, table.stderr);
  assert.match(table.stdout, /2 · code2wav/);
});

test(
  'an editor session of the log imported with that deploy config names its stages as printed',
  { timeout: 60_000 },
  async () => {
    const lsp = await startLanguageServer(storage);
    const started = await lsp.request('stageLens/import', { path: LOG, deployConfig: DEPLOY });
    const info = await waitFor('the import to end', async () => {
      const s = await lsp.session(started.id);
      return s?.status === 'exited' ? s : undefined;
    });
    assert.equal(info.deployConfig, DEPLOY);
    assert.deepEqual(info.stageRoles, PRINTED);
  },
);
